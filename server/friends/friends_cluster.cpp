// The friends room across a cluster (docs/pairing.md, "Across a cluster"): each presence tick
// the node writes who is connected to it (presence:<node> in Redis, expiring after a few ticks)
// and reads back every other node's in the same script, so presence, the online list and the
// counts cover the cluster one tick late at most. The channel "friends" carries the challenges'
// notes between nodes (friends_cluster_challenges.cpp).
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "cluster/cluster_node.hpp"
#include "cluster/pool_scripts.hpp"
#include "friends/friends_room.hpp"
#include "match/player.hpp"

namespace duelhall::server {
namespace {

// A node's presence outlives a few missed ticks, never a dead node by much.
constexpr uint32_t kPresenceTicks = 5;
constexpr int64_t kMinPresenceMs = 3000;

}  // namespace

void FriendsRoom::start_cluster() {
  host_.cluster()->follow(
      "friends",
      [this, alive = std::weak_ptr<int>(alive_)](std::string bytes) {
        // On the feed's strand: the room's work is posted to the I/O loop, as its tick runs.
        boost::asio::post(host_.io(), [this, alive, bytes = std::move(bytes)] {
          if (auto held = alive.lock()) on_note(bytes);
        });
      },
      // Nothing to reload: a challenge is told again every few seconds while it waits.
      [] {});
}

void FriendsRoom::swap_presence(const OnlineMap& online, size_t players) {
  cluster::ClusterNode& cl = *host_.cluster();
  NodePresence mine;
  mine.set_node(cl.options().node);
  mine.set_players(static_cast<uint32_t>(players));
  for (const auto& [account, o] : online) {
    if (!o.here() || o.guest) continue;
    PresentAccount* a = mine.add_accounts();
    a->set_id(account);
    a->set_name(o.name);
    a->set_away(o.away);
  }
  const int64_t ttl_ms =
      std::max<int64_t>(kMinPresenceMs, int64_t{host_.config().presence_tick_ms} * kPresenceTicks);
  cl.directory().eval(
      cluster::scripts::kPresenceSwap,
      {cl.options().node, mine.SerializeAsString(), std::to_string(ttl_ms)},
      [this, alive = std::weak_ptr<int>(alive_)](std::optional<cluster::RedisReply> reply) {
        // Unanswered: the last read stands until the entries' own nodes would have expired them.
        const auto held = alive.lock();
        if (!reply || !held) return;
        std::map<std::string, NodePresence> read;
        for (const auto& element : reply->elements) {
          NodePresence presence;
          if (presence.ParseFromString(element.text) && !presence.node().empty())
            read[presence.node()] = std::move(presence);
        }
        std::lock_guard lock(mutex_);
        remote_presence_ = std::move(read);
      });
}

void FriendsRoom::broadcast(const FriendsNote& note) {
  host_.cluster()->broadcast("friends", note.SerializeAsString());
}

void FriendsRoom::on_note(const std::string& bytes) {
  FriendsNote note;
  if (!note.ParseFromString(bytes)) {
    spdlog::warn("friends: a note from another node could not be read");
    return;
  }
  switch (note.note_case()) {
    case FriendsNote::kPending:
      on_pending(note.pending());
      break;
    case FriendsNote::kAnswer:
      on_answer(note.answer());
      break;
    case FriendsNote::kClosed:
      on_closed(note.closed());
      break;
    case FriendsNote::NOTE_NOT_SET:
      break;
  }
}

ClusterChallenge FriendsRoom::cluster_challenge(const PendingChallenge& c) const {
  ClusterChallenge out;
  out.set_id(c.id);
  out.set_from(c.from);
  out.set_from_name(c.from_name);
  out.set_to(c.to);
  out.set_to_name(c.to_name);
  out.set_settings(c.settings.SerializeAsString());
  out.set_expires_ms(c.expires_ms);
  out.set_sent_offline(c.sent_offline);
  out.set_node(host_.cluster()->options().node);
  return out;
}

PendingChallenge FriendsRoom::pending_of(const ClusterChallenge& c) {
  PendingChallenge out;
  out.id = c.id();
  out.from = c.from();
  out.from_name = c.from_name();
  out.to = c.to();
  out.to_name = c.to_name();
  out.settings.ParseFromString(c.settings());
  out.expires_ms = c.expires_ms();
  out.sent_offline = c.sent_offline();
  return out;
}

}  // namespace duelhall::server
