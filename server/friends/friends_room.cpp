// The room's frame: its clock and tick, who is connected, and the pushes.
#include "friends/friends_room.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "match/player.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ChallengeLimits limits_of(const Config& config) {
  ChallengeLimits limits;
  limits.online_ms = int64_t{config.challenge_seconds} * 1000;
  limits.offline_ms = int64_t{config.challenge_offline_seconds} * 1000;
  limits.per_minute = config.challenges_per_minute;
  limits.max_pending = config.max_pending_challenges;
  return limits;
}

}  // namespace

FriendsRoom::FriendsRoom(FriendsHost& host)
    : host_(host), now_ms_(unix_now_ms), book_(limits_of(host.config())) {}

FriendsRoom::~FriendsRoom() = default;

void FriendsRoom::start() {
  if (host_.cluster()) start_cluster();
  timer_ = std::make_unique<boost::asio::steady_timer>(host_.io());
  arm();
}

void FriendsRoom::arm() {
  timer_->expires_after(std::chrono::milliseconds(std::max(50U, host_.config().presence_tick_ms)));
  // The timer is the room's and goes with it: a wait cancelled by its destruction returns before
  // `this` is looked at.
  timer_->async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    try {
      tick();
    } catch (const std::exception& e) {
      spdlog::warn("hall tick: {}", e.what());
    }
    arm();
  });
}

FriendsRoom::OnlineMap FriendsRoom::online_accounts() {
  OnlineMap online;
  const int64_t idle_ms = int64_t{host_.config().away_seconds} * 1000;
  const int64_t steady_now = Player::steady_now_ms();
  for (const auto& entry : host_.roster().all()) {
    if (!entry.player) continue;
    const auto account = entry.player->account();
    if (account.id == 0) continue;
    auto peer = entry.peer.lock();
    if (!peer) continue;
    Online& o = online[account.id];
    o.name = entry.player->name();
    o.guest = account.guest;
    o.peers.push_back(std::move(peer));
    if (!o.player) o.player = entry.player;
    if (steady_now - entry.player->last_active_ms() < idle_ms) o.away = false;
  }
  if (!host_.cluster()) return online;
  std::lock_guard lock(mutex_);
  for (const auto& [node, presence] : remote_presence_) {
    for (const PresentAccount& a : presence.accounts()) {
      auto [it, added] = online.try_emplace(a.id());
      if (!added) {
        // Connected here and there: here it is, away only if idle everywhere.
        if (!a.away()) it->second.away = false;
        continue;
      }
      it->second.name = a.name();
      it->second.away = a.away();
      it->second.node = node;
    }
  }
  return online;
}

void FriendsRoom::push(const OnlineMap& online, int64_t account, const ServerMessage& message,
                       Outbox& out) {
  auto it = online.find(account);
  if (it == online.end()) return;
  const Frame frame = frame_of(message);
  for (const auto& peer : it->second.peers) out.add(peer, frame);
}

ServerMessage FriendsRoom::update_of(const PendingChallenge& c, ChallengeUpdate::State state,
                                     bool incoming, std::string reason, uint64_t match_id) {
  ServerMessage m;
  ChallengeUpdate* u = m.mutable_challenge_update();
  ChallengeInfo* info = u->mutable_challenge();
  info->set_challenge_id(c.id);
  info->set_from(c.from_name);
  info->set_to(c.to_name);
  *info->mutable_settings() = c.settings;
  info->set_expires_ms(c.expires_ms);
  info->set_sent_offline(c.sent_offline);
  u->set_state(state);
  u->set_reason(std::move(reason));
  u->set_match_id(match_id);
  u->set_incoming(incoming);
  return m;
}

void FriendsRoom::tick() {
  const int64_t now = now_ms_();
  const OnlineMap online = online_accounts();
  MatchList every;
  host_.list_cluster_matches(every);
  size_t players = 0;
  for (const auto& entry : host_.roster().all()) players += entry.player && !entry.peer.expired();
  if (host_.cluster()) swap_presence(online, players);
  Outbox out;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [node, presence] : remote_presence_) players += presence.players();
    tick_challenges(online, now, out);
    if (host_.cluster()) tick_remote(online, now, out);
    tick_presence(online, every, out);
    tick_counts(every, players, out);
    tick_tv(every, now, out);
  }
  out.flush();
}

}  // namespace duelhall::server
