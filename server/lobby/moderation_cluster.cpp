#include "lobby/moderation_cluster.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <charconv>

#include "cluster/cluster_node.hpp"
#include "lobby/moderation_support.hpp"

namespace duelhall::server {
namespace {

using Kind = ModerationChange::Kind;

constexpr const char* kChannel = "moderation";
constexpr std::pair<Kind, std::string_view> kKinds[] = {{Kind::kBan, "ban"},
                                                        {Kind::kUnban, "unban"},
                                                        {Kind::kMute, "mute"},
                                                        {Kind::kUnmute, "unmute"},
                                                        {Kind::kKick, "kick"}};

std::string_view name_of(Kind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "?";
}

// The connections of an account on this node.
std::vector<std::shared_ptr<Peer>> account_peers(Hub& hub, int64_t account) {
  return hub.roster().peers([account](const Roster::Entry& e) {
    return e.player && account != 0 && e.player->account().id == account;
  });
}

// Closes every connection whose account or address a ban in force covers; how many.
size_t close_banned(Hub& hub, accounts::ModerationService& service) {
  size_t closed = 0;
  for (const Roster::Entry& entry : hub.roster().all()) {
    auto peer = entry.peer.lock();
    if (!peer || !entry.player) continue;
    auto ban = service.account_ban(entry.player->account().id);
    if (!ban) ban = service.address_ban(entry.address);
    if (!ban) continue;
    closed += tell_peers({peer}, sanction_of(*ban), "BANNED: " + accounts::describe(*ban));
  }
  return closed;
}

}  // namespace

std::string encode(const ModerationChange& change) {
  return std::string(name_of(change.kind)) + " " + std::to_string(change.account) + "\n" +
         change.reason;
}

std::optional<ModerationChange> decode_moderation_change(std::string_view message) {
  const auto space = message.find(' ');
  const auto newline = message.find('\n');
  if (space == std::string_view::npos || newline == std::string_view::npos || newline < space) {
    return std::nullopt;
  }
  ModerationChange change;
  const std::string_view kind = message.substr(0, space);
  bool known = false;
  for (const auto& [k, name] : kKinds) {
    if (name == kind) {
      change.kind = k;
      known = true;
    }
  }
  const std::string_view account = message.substr(space + 1, newline - space - 1);
  auto [end, ec] = std::from_chars(account.data(), account.data() + account.size(), change.account);
  if (!known || ec != std::errc() || end != account.data() + account.size() || change.account < 0) {
    return std::nullopt;
  }
  change.reason = std::string(message.substr(newline + 1));
  return change;
}

void broadcast_moderation(Hub& hub, const ModerationChange& change) {
  if (auto* cluster = hub.cluster()) cluster->broadcast(kChannel, encode(change));
}

void follow_moderation(Hub& hub, cluster::ClusterNode& cluster) {
  // The channel's handlers run on the feed's strand, which must not wait on the store.
  cluster.follow(
      kChannel,
      [&hub](std::string message) {
        auto change = decode_moderation_change(message);
        if (!change) {
          spdlog::warn("cluster: a moderation message that does not parse was ignored");
          return;
        }
        boost::asio::post(hub.io(),
                          [&hub, change = *change] { apply_moderation_change(hub, change); });
      },
      [&hub] { boost::asio::post(hub.io(), [&hub] { resync_moderation(hub); }); });
}

void apply_moderation_change(Hub& hub, const ModerationChange& change) {
  accounts::ModerationService* service = hub.moderation();
  if (!service) return;
  try {
    if (change.kind != Kind::kKick) service->reload();
  } catch (const std::exception& e) {
    spdlog::error("cluster: the bans and mutes could not be reloaded: {}", e.what());
    return;
  }
  size_t told = 0;
  switch (change.kind) {
    case Kind::kBan:
      told = close_banned(hub, *service);
      break;
    case Kind::kMute:
      if (auto mute = service->muted({change.account, 0, {}})) {
        told = tell_peers(account_peers(hub, change.account), sanction_of(*mute), {});
      }
      break;
    case Kind::kKick: {
      const int64_t account = change.account;
      told = kick_out(
          hub,
          [account](const Roster::Entry& e) {
            return e.player && account != 0 && e.player->account().id == account;
          },
          account, change.reason, std::nullopt);
      break;
    }
    case Kind::kUnban:
    case Kind::kUnmute:
      break;
  }
  spdlog::info("cluster: another node's {} applied here ({} connections told)",
               name_of(change.kind), told);
}

void resync_moderation(Hub& hub) {
  accounts::ModerationService* service = hub.moderation();
  if (!service) return;
  try {
    service->reload();
  } catch (const std::exception& e) {
    spdlog::error("cluster: the bans and mutes could not be reloaded: {}", e.what());
    return;
  }
  if (const size_t closed = close_banned(hub, *service)) {
    spdlog::info("cluster: bans reloaded; {} connections banned meanwhile were closed", closed);
  }
}

}  // namespace duelhall::server
