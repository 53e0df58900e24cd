// Follows and presence: following and unfollowing (stored with the account), the followed
// accounts' presence pushed when it changes, and the lobby's counts of players and matches.
#include <algorithm>

#include "accounts/account_service.hpp"
#include "friends/friends_room.hpp"
#include "moderation/moderation_service.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

// Account name -> a match in play it sits in (seats carry the account's name).
std::map<std::string, uint64_t> seated_in_play(const MatchList& every) {
  std::map<std::string, uint64_t> out;
  for (const auto& info : every.matches()) {
    if (info.status() != PLAYING) continue;
    for (const auto& seat : info.seats()) {
      if (seat.occupant() == SeatInfo::HUMAN) out.emplace(seat.name(), info.match_id());
    }
  }
  return out;
}

}  // namespace

std::vector<FriendsRoom::Followed>& FriendsRoom::follows_of(int64_t account) {
  auto it = follows_.find(account);
  if (it != follows_.end()) return it->second;
  std::vector<Followed> list;
  if (host_.moderation() && host_.accounts()) {
    for (auto id : host_.moderation()->store().follows(account)) {
      if (auto view = host_.accounts()->find(id)) list.push_back({id, view->name});
    }
  }
  return follows_[account] = std::move(list);
}

FollowedList FriendsRoom::followed_list(int64_t account, const OnlineMap& online,
                                        const MatchList& every) {
  FollowedList out;
  const auto seated = seated_in_play(every);
  for (const auto& followed : follows_of(account)) {
    FollowedPlayer* p = out.add_players();
    p->set_name(followed.name);
    auto o = online.find(followed.id);
    if (o == online.end()) continue;  // OFFLINE
    auto playing = seated.find(followed.name);
    if (playing != seated.end()) {
      p->set_presence(FollowedPlayer::PLAYING);
      p->set_match_id(playing->second);
    } else {
      p->set_presence(o->second.away ? FollowedPlayer::AWAY : FollowedPlayer::ONLINE);
    }
  }
  return out;
}

Handled FriendsRoom::follow(Call& call, const std::string& name, bool on) {
  auto* accounts = host_.accounts();
  auto* moderation = host_.moderation();
  if (!accounts || !moderation) return Handled::fail(ACCOUNTS_DISABLED, "this server offers no accounts");
  const auto me = call.state.player->account();
  if (me.id == 0 || me.guest) return Handled::fail(SIGN_IN_REQUIRED, "sign in to follow players");
  if (name.size() > 64) return Handled::fail(FIELD_TOO_LONG, "an account name is at most 64 bytes");
  const auto target = accounts->find(name);
  if (!target || target->guest) return Handled::fail(UNKNOWN_ACCOUNT, "no account named '" + name + "'");
  if (target->id == me.id) return Handled::fail(CANNOT_CHALLENGE_SELF, "you cannot follow yourself");
  const OnlineMap online = online_accounts();
  MatchList every;
  host_.list_cluster_matches(every);
  std::lock_guard lock(mutex_);
  auto& list = follows_of(me.id);
  const auto found = std::find_if(list.begin(), list.end(),
                                  [&](const Followed& f) { return f.id == target->id; });
  if (on && found == list.end()) {
    if (list.size() >= host_.config().max_follows) {
      return Handled::fail(LIMIT_REACHED, "at most " + std::to_string(host_.config().max_follows) +
                                              " followed accounts");
    }
    moderation->store().set_follow(me.id, target->id, true);
    list.push_back({target->id, target->name});
  } else if (!on && found != list.end()) {
    moderation->store().set_follow(me.id, target->id, false);
    list.erase(found);
  }
  *call.reply.mutable_followed() = followed_list(me.id, online, every);
  presence_told_[me.id] = call.reply.followed().SerializeAsString();
  if (counts_) *call.reply.mutable_followed()->mutable_counts() = *counts_;
  return Handled::ok();
}

Handled FriendsRoom::get_followed(Call& call) {
  const auto me = call.state.player->account();
  if (me.id == 0 || me.guest) return Handled::fail(SIGN_IN_REQUIRED, "sign in to follow players");
  const OnlineMap online = online_accounts();
  MatchList every;
  host_.list_cluster_matches(every);
  std::lock_guard lock(mutex_);
  *call.reply.mutable_followed() = followed_list(me.id, online, every);
  presence_told_[me.id] = call.reply.followed().SerializeAsString();
  if (counts_) *call.reply.mutable_followed()->mutable_counts() = *counts_;
  return Handled::ok();
}

Handled FriendsRoom::list_online(Call& call, const ListOnline& request) {
  constexpr uint32_t kDefaultListed = 50;
  constexpr uint32_t kMostListed = 200;  // a bounded reply, however many are online
  const uint32_t limit =
      request.limit() == 0 ? kDefaultListed : std::min(request.limit(), kMostListed);
  const OnlineMap online = online_accounts();
  MatchList every;
  host_.list_cluster_matches(every);
  const auto seated = seated_in_play(every);
  std::vector<const Online*> named;
  for (const auto& [account, o] : online) {
    if (!o.guest) named.push_back(&o);
  }
  std::sort(named.begin(), named.end(),
            [](const Online* a, const Online* b) { return a->name < b->name; });
  OnlineList& list = *call.reply.mutable_online();
  list.set_total(static_cast<uint32_t>(named.size()));
  for (const Online* o : named) {
    if (static_cast<uint32_t>(list.players_size()) >= limit) break;
    FollowedPlayer* p = list.add_players();
    p->set_name(o->name);
    auto playing = seated.find(o->name);
    if (playing != seated.end()) {
      p->set_presence(FollowedPlayer::PLAYING);
      p->set_match_id(playing->second);
    } else {
      p->set_presence(o->away ? FollowedPlayer::AWAY : FollowedPlayer::ONLINE);
    }
  }
  std::lock_guard lock(mutex_);
  if (counts_) *list.mutable_counts() = *counts_;
  return Handled::ok();
}

void FriendsRoom::tick_presence(const OnlineMap& online, const MatchList& every, Outbox& out) {
  // What a follower who left was told is forgotten, so that coming back tells it afresh; the
  // followed lists of accounts gone are read from the store again when they return.
  const auto gone = [&](const auto& e) {
    const auto o = online.find(e.first);
    return o == online.end() || !o->second.here();
  };
  std::erase_if(presence_told_, gone);
  std::erase_if(follows_, gone);
  for (const auto& [account, o] : online) {
    if (o.guest || !o.here()) continue;  // another node tells its own
    ServerMessage m;
    *m.mutable_followed() = followed_list(account, online, every);
    if (m.followed().players().empty()) continue;
    std::string told = m.followed().SerializeAsString();
    auto& last = presence_told_[account];
    if (last == told) continue;
    last = std::move(told);
    if (counts_) *m.mutable_followed()->mutable_counts() = *counts_;
    push(online, account, m, out);
  }
}

void FriendsRoom::tick_counts(const MatchList& every, size_t players, Outbox& out) {
  HallCounts counts;
  counts.set_players_online(static_cast<uint32_t>(players));
  counts.set_matches_in_play(static_cast<uint32_t>(std::count_if(
      every.matches().begin(), every.matches().end(),
      [](const MatchInfo& info) { return info.status() == PLAYING; })));
  const bool changed =
      !counts_ || counts_->SerializeAsString() != counts.SerializeAsString();
  counts_ = counts;
  ServerMessage m;
  *m.mutable_hall_counts() = counts;
  const Frame frame = frame_of(m);
  std::set<uint64_t> told;
  for (const auto& peer : host_.lobby_subscribers()) {
    told.insert(peer->peer_id());
    if (changed || !counts_told_.contains(peer->peer_id())) out.add(peer, frame);
  }
  counts_told_ = std::move(told);
}

}  // namespace duelhall::server
