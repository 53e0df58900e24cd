// Challenges by account name: send, answer (accept or decline), withdraw, and the tick's
// expiry, withdrawal of a departed challenger's challenges and delivery at sign-in.
#include <algorithm>

#include "accounts/account_service.hpp"
#include "cluster/cluster_node.hpp"
#include "friends/friends_room.hpp"
#include "match/player.hpp"
#include "moderation/moderation_service.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxNameBytes = 64;
constexpr size_t kMaxReasonBytes = 200;
constexpr size_t kMaxSeatOptionBytes = 16 * 1024;

}  // namespace

Handled FriendsRoom::challenge(Call& call, const Challenge& request) {
  auto* accounts = host_.accounts();
  auto* moderation = host_.moderation();
  if (!accounts || !moderation) {
    return Handled::fail(ACCOUNTS_DISABLED, "this server offers no accounts to challenge");
  }
  const auto me = call.state.player->account();
  if (me.id == 0 || (me.guest && !host_.config().guests_challenge)) {
    return Handled::fail(SIGN_IN_REQUIRED, "sign in to an account to challenge someone");
  }
  if (request.to_name().size() > kMaxNameBytes ||
      request.seat_option().size() > kMaxSeatOptionBytes) {
    return Handled::fail(FIELD_TOO_LONG, "the name or the seat option is too long");
  }
  const auto target = accounts->find(request.to_name());
  if (!target || target->guest) {
    return Handled::fail(UNKNOWN_ACCOUNT, "no account named '" + request.to_name() + "'");
  }
  if (target->id == me.id) return Handled::fail(CANNOT_CHALLENGE_SELF, "you cannot challenge yourself");
  if (auto ban = moderation->account_ban(target->id); ban && ban->kind == "ban") {
    return Handled::fail(TARGET_BANNED, target->name + " is banned and cannot play");
  }
  const auto ignored = moderation->store().ignores(target->id);
  if (std::find(ignored.begin(), ignored.end(), me.id) != ignored.end()) {
    return Handled::fail(IGNORED_BY_TARGET, target->name + " does not take your challenges");
  }
  MatchSettings settings = request.settings();
  const auto* ruleset = host_.registry().find(settings.ruleset());
  if (!ruleset) {
    return Handled::fail(UNKNOWN_RULESET, "no ruleset named '" + settings.ruleset() + "'");
  }
  if (settings.seats() == 0) settings.set_seats(2);
  if (settings.seats() != 2 || ruleset->min_seats > 2 || ruleset->max_seats < 2) {
    return Handled::fail(BAD_PARAMETERS, "a challenge is a match of two seats");
  }
  // In a cluster a challenge's id is the cluster's (one of the match ids), so that any node can
  // name it.
  uint64_t id = 0;
  if (auto* cl = host_.cluster()) {
    id = cl->take_match_id();
    if (id == 0) {
      return Handled::retry(CLUSTER_UNAVAILABLE, "this node cannot reach the cluster", 1000);
    }
  }
  const OnlineMap online = online_accounts();
  const bool target_online = online.contains(target->id);
  Outbox out;
  ChallengeBook::Added added;
  {
    std::lock_guard lock(mutex_);
    added = book_.add(me.id, call.state.player->name(), target->id, target->name,
                      std::move(settings), request.seat_option(), target_online, now_ms_(), id);
  }
  if (added.code != OK) return Handled::fail(added.code, added.reason);
  call.reply = update_of(added.challenge, ChallengeUpdate::PENDING, false);
  if (target_online) push(online, target->id, update_of(added.challenge, ChallengeUpdate::PENDING, true), out);
  out.flush();
  if (host_.cluster()) {
    FriendsNote note;
    *note.mutable_pending() = cluster_challenge(added.challenge);
    broadcast(note);
  }
  return Handled::ok();
}

Handled FriendsRoom::answer(Call& call, const AnswerChallenge& request) {
  const auto me = call.state.player->account();
  if (request.reason().size() > kMaxReasonBytes ||
      request.seat_option().size() > kMaxSeatOptionBytes) {
    return Handled::fail(FIELD_TOO_LONG, "a reason is at most 200 bytes");
  }
  std::optional<PendingChallenge> taken;
  {
    std::lock_guard lock(mutex_);
    if (me.id != 0) taken = book_.take_answered(request.challenge_id(), me.id, now_ms_());
  }
  if (!taken && host_.cluster()) return answer_remote(call, request);
  if (!taken) {
    return Handled::fail(CHALLENGE_GONE,
                         "that challenge expired, was withdrawn or answered, or is not yours");
  }
  const OnlineMap online = online_accounts();
  Outbox out;
  if (!request.accept()) {
    push(online, taken->from, update_of(*taken, ChallengeUpdate::DECLINED, false, request.reason()),
         out);
    out.flush();
    closed_here(*taken, ChallengeUpdate::DECLINED, request.reason());
    return Handled::ok();
  }
  auto challenger = online.find(taken->from);
  if (challenger == online.end() || !challenger->second.here()) {
    return Handled::fail(CHALLENGE_GONE, taken->from_name + " is no longer connected");
  }
  uint64_t match_id = 0;
  Handled started = host_.start_challenge(challenger->second.player, taken->settings,
                                          taken->seat_option, call, request.seat_option(), match_id);
  if (started.code != OK) {
    push(online, taken->from,
         update_of(*taken, ChallengeUpdate::WITHDRAWN, false,
                   "the match could not be made: " + started.reason),
         out);
    closed_here(*taken, ChallengeUpdate::WITHDRAWN, "the match could not be made");
  } else {
    closed_here(*taken, ChallengeUpdate::ACCEPTED, {});
    push(online, taken->from, update_of(*taken, ChallengeUpdate::ACCEPTED, false, {}, match_id),
         out);
  }
  out.flush();
  return started;
}

Handled FriendsRoom::cancel(Call& call, const CancelChallenge& request) {
  const auto me = call.state.player->account();
  std::optional<PendingChallenge> taken;
  {
    std::lock_guard lock(mutex_);
    if (me.id != 0) taken = book_.take_withdrawn(request.challenge_id(), me.id, now_ms_());
  }
  if (!taken) return Handled::fail(CHALLENGE_GONE, "that challenge no longer waits");
  Outbox out;
  if (taken->delivered) {
    push(online_accounts(), taken->to, update_of(*taken, ChallengeUpdate::WITHDRAWN, true), out);
  }
  out.flush();
  closed_here(*taken, ChallengeUpdate::WITHDRAWN, {});
  return Handled::ok();
}

void FriendsRoom::tick_challenges(const OnlineMap& online, int64_t now, Outbox& out) {
  for (const auto& c : book_.take_expired(now)) {
    push(online, c.from, update_of(c, ChallengeUpdate::EXPIRED, false), out);
    if (c.delivered) push(online, c.to, update_of(c, ChallengeUpdate::EXPIRED, true), out);
    closed_here(c, ChallengeUpdate::EXPIRED, {});
  }
  for (int64_t challenger : book_.challengers()) {
    // A challenge is its challenger's node's: connected to another only, it has left this one.
    const auto o = online.find(challenger);
    if (o != online.end() && o->second.here()) continue;
    for (const auto& c : book_.take_sent_by(challenger)) {
      if (c.delivered) {
        push(online, c.to,
             update_of(c, ChallengeUpdate::WITHDRAWN, true, c.from_name + " left"), out);
      }
      closed_here(c, ChallengeUpdate::WITHDRAWN, c.from_name + " left");
    }
  }
  for (const auto& [account, o] : online) {
    if (!o.here()) continue;
    for (const auto& c : book_.deliver_to(account)) {
      push(online, account, update_of(c, ChallengeUpdate::PENDING, true), out);
    }
  }
}

}  // namespace duelhall::server
