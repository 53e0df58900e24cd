// Moderation across a cluster's nodes (docs/moderation.md, docs/cluster.md). Each node keeps the
// bans and mutes in force in memory; a change made on one node is stored (the shared PostgreSQL
// store), applied there, and broadcast on the cluster's `moderation` channel, so that every other
// node applies it at once: reloads its copy from the store, closes the connections a ban covers,
// tells a muted or kicked account's connections. A node whose channel dropped (Redis went and
// came back) reloads and closes what became banned meanwhile, since pub/sub keeps nothing for a
// subscriber that is away.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace duelhall::cluster {
class ClusterNode;
}

namespace duelhall::server {

class ModerationHost;

struct ModerationChange {
  enum class Kind { kBan, kUnban, kMute, kUnmute, kKick };
  Kind kind = Kind::kBan;
  int64_t account = 0;  // the account muted, unmuted or kicked (0 for the others)
  std::string reason;   // a kick's
};
// "<kind> <account>\n<reason>", kind one of ban, unban, mute, unmute, kick.
std::string encode(const ModerationChange& change);
std::optional<ModerationChange> decode_moderation_change(std::string_view message);

// Tells the other nodes of a change made here (nothing outside a cluster).
void broadcast_moderation(ModerationHost& hub, const ModerationChange& change);
// Follows the other nodes' changes (called once, when the hub joins the cluster).
void follow_moderation(ModerationHost& hub, cluster::ClusterNode& cluster);

// Applies another node's change here (on the hub's loop: it reads the store).
void apply_moderation_change(ModerationHost& hub, const ModerationChange& change);
// Reloads the bans and mutes and closes every connection a ban in force covers.
void resync_moderation(ModerationHost& hub);

}  // namespace duelhall::server
