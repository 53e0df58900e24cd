// Challenges across the nodes of a cluster (docs/pairing.md, "Across a cluster"). A challenge is
// kept by its challenger's node, as on one node; that node tells every other of it on the
// channel "friends" when it is sent and every few seconds while it waits, and each node delivers
// it to the target's connections it holds. An answer made on another node goes back to the
// challenger's node, which alone takes the challenge from its book, so it is answered once; an
// acceptance there makes the match with the challenger seated and seat 1 kept for the accepter,
// whose own node then answers the AnswerChallenge with a Paired carrying a join ticket.
#include <spdlog/spdlog.h>

#include "cluster/cluster_node.hpp"
#include "friends/friends_room.hpp"
#include "match/player.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

// How long an acceptance waits for the challenger's node before it is refused.
constexpr int64_t kAnswerWaitMs = 10'000;
// A waiting challenge is told again this often; a node that stops telling of it for longer than
// kForgetMs has left (and its challenger with it).
constexpr int64_t kRetellMs = 5'000;
constexpr int64_t kForgetMs = 16'000;

ServerMessage refusal(uint64_t request_id, ResultCode code, const std::string& reason) {
  ServerMessage m;
  m.set_request_id(request_id);
  m.set_result(code);
  m.set_reason(reason);
  return m;
}

}  // namespace

void FriendsRoom::closed_here(const PendingChallenge& c, ChallengeUpdate::State state,
                              const std::string& reason, ResultCode code) {
  if (!host_.cluster()) return;
  FriendsNote note;
  ChallengeClosedNote* closed = note.mutable_closed();
  *closed->mutable_challenge() = cluster_challenge(c);
  closed->set_state(state);
  closed->set_reason(reason);
  closed->set_code(code);
  broadcast(note);
}

Handled FriendsRoom::answer_remote(Call& call, const AnswerChallenge& request) {
  const auto me = call.state.player->account();
  const int64_t now = now_ms_();
  FriendsNote note;
  {
    std::lock_guard lock(mutex_);
    const auto found = remote_challenges_.find(request.challenge_id());
    if (me.id == 0 || found == remote_challenges_.end() || found->second.challenge.to() != me.id ||
        found->second.challenge.expires_ms() <= now || awaited_.contains(request.challenge_id())) {
      return Handled::fail(CHALLENGE_GONE,
                           "that challenge expired, was withdrawn or answered, or is not yours");
    }
    ChallengeAnswerNote* answer = note.mutable_answer();
    answer->set_id(request.challenge_id());
    answer->set_answerer(me.id);
    answer->set_accept(request.accept());
    answer->set_reason(request.reason());
    answer->set_node(host_.cluster()->options().node);
    answer->set_owner(found->second.challenge.node());
    if (request.accept()) {
      awaited_[request.challenge_id()] =
          AwaitedAnswer{call.peer, call.state.player, call.request_id, now + kAnswerWaitMs};
    } else {
      remote_challenges_.erase(found);
    }
  }
  broadcast(note);
  // A decline is answered at once, as on one node; an acceptance once the match is made.
  return request.accept() ? Handled::later() : Handled::ok();
}

void FriendsRoom::deliver(RemoteChallenge& remote, const OnlineMap& online, Outbox& out) {
  const ClusterChallenge& c = remote.challenge;
  const auto target = online.find(c.to());
  if (remote.delivered || target == online.end() || !target->second.here()) return;
  remote.delivered = true;
  push(online, c.to(), update_of(pending_of(c), ChallengeUpdate::PENDING, true), out);
}

void FriendsRoom::on_pending(const ClusterChallenge& c) {
  const OnlineMap online = online_accounts();
  Outbox out;
  {
    std::lock_guard lock(mutex_);
    RemoteChallenge& remote = remote_challenges_[c.id()];
    remote.challenge = c;
    remote.told_ms = now_ms_();
    deliver(remote, online, out);
  }
  out.flush();
}

void FriendsRoom::on_answer(const ChallengeAnswerNote& note) {
  if (note.owner() != host_.cluster()->options().node) return;  // the owner alone answers
  std::optional<PendingChallenge> taken;
  {
    std::lock_guard lock(mutex_);
    taken = book_.take_answered(note.id(), note.answerer(), now_ms_());
  }
  if (!taken) {
    PendingChallenge gone;
    gone.id = note.id();
    closed_here(gone, ChallengeUpdate::PENDING, "that challenge expired, was withdrawn or answered",
                CHALLENGE_GONE);
    return;
  }
  const OnlineMap online = online_accounts();
  Outbox out;
  if (!note.accept()) {
    push(online, taken->from, update_of(*taken, ChallengeUpdate::DECLINED, false, note.reason()),
         out);
    out.flush();
    closed_here(*taken, ChallengeUpdate::DECLINED, note.reason());
    return;
  }
  const auto challenger = online.find(taken->from);
  if (challenger == online.end() || !challenger->second.here()) {
    closed_here(*taken, ChallengeUpdate::WITHDRAWN, taken->from_name + " is no longer connected",
                CHALLENGE_GONE);
    return;
  }
  host_.start_challenge_for_remote(
      challenger->second.player, taken->settings, taken->seat_option,
      [this, alive = std::weak_ptr<int>(alive_), c = *taken](
          ResultCode code, const std::string& reason, const MatchInfo& match) {
        const auto held = alive.lock();
        if (!held) return;
        FriendsNote closed;
        ChallengeClosedNote* n = closed.mutable_closed();
        *n->mutable_challenge() = cluster_challenge(c);
        Outbox told;
        if (code != OK) {
          n->set_state(ChallengeUpdate::WITHDRAWN);
          n->set_code(code);
          n->set_reason("the match could not be made: " + reason);
          push(online_accounts(), c.from,
               update_of(c, ChallengeUpdate::WITHDRAWN, false, n->reason()), told);
        } else {
          n->set_state(ChallengeUpdate::ACCEPTED);
          n->set_match_id(match.match_id());
          n->set_match_node(host_.cluster()->options().node);
          n->set_match_info(match.SerializeAsString());
          push(online_accounts(), c.from,
               update_of(c, ChallengeUpdate::ACCEPTED, false, {}, match.match_id()), told);
        }
        told.flush();
        broadcast(closed);
      });
}

void FriendsRoom::on_closed(const ChallengeClosedNote& note) {
  const uint64_t id = note.challenge().id();
  std::optional<AwaitedAnswer> awaited;
  std::optional<RemoteChallenge> remote;
  {
    std::lock_guard lock(mutex_);
    if (auto found = awaited_.find(id); found != awaited_.end()) {
      awaited = std::move(found->second);
      awaited_.erase(found);
    }
    if (auto found = remote_challenges_.find(id); found != remote_challenges_.end()) {
      remote = std::move(found->second);
      remote_challenges_.erase(found);
    }
  }
  if (awaited) {
    const auto peer = awaited->peer.lock();
    if (!peer) return;
    if (note.code() != 0 || note.state() != ChallengeUpdate::ACCEPTED) {
      const auto code = note.code() != 0 ? static_cast<ResultCode>(note.code()) : CHALLENGE_GONE;
      peer->send(frame_of(refusal(awaited->request_id, code, note.reason())));
      return;
    }
    // Seat 1 of the match on the challenger's node is the accepter's: a ticket to join it there.
    cluster::ClusterNode& cl = *host_.cluster();
    ServerMessage m;
    m.set_request_id(awaited->request_id);
    m.set_result(OK);
    Paired* paired = m.mutable_paired();
    paired->set_match_id(note.match_id());
    paired->set_seat(1);
    paired->mutable_match()->ParseFromString(note.match_info());
    if (const auto node = cl.node(note.match_node())) {
      Redirect* r = paired->mutable_redirect();
      r->set_node(node->name);
      r->set_address(node->address);
      r->set_ticket(cl.ticket(note.match_id(), cluster::TicketRole::kJoin, 1, node->name,
                              cluster::ClusterNode::holder_key(note.challenge().to(), {})));
      r->set_match_id(note.match_id());
      r->set_expires_in_seconds(static_cast<uint32_t>(cl.options().ticket_life.count() / 1000));
    }
    peer->send(frame_of(m));
    return;
  }
  // Answered from another node, withdrawn or expired: the target's connections here that were
  // told of it are told it is over.
  if (!remote || !remote->delivered) return;
  const auto state = static_cast<ChallengeUpdate::State>(note.state());
  Outbox out;
  push(online_accounts(), note.challenge().to(),
       update_of(pending_of(note.challenge()), state, true, note.reason(), note.match_id()), out);
  out.flush();
}

void FriendsRoom::tick_remote(const OnlineMap& online, int64_t now, Outbox& out) {
  for (auto it = remote_challenges_.begin(); it != remote_challenges_.end();) {
    RemoteChallenge& remote = it->second;
    const ClusterChallenge& c = remote.challenge;
    const bool expired = c.expires_ms() <= now - kRetellMs;
    if (expired || now - remote.told_ms > kForgetMs) {
      // Its node would have said: it has gone, and the challenger with it.
      if (remote.delivered) {
        push(online, c.to(),
             update_of(pending_of(c),
                       expired ? ChallengeUpdate::EXPIRED : ChallengeUpdate::WITHDRAWN, true,
                       expired ? "" : c.from_name() + " left"),
             out);
      }
      it = remote_challenges_.erase(it);
      continue;
    }
    deliver(remote, online, out);
    ++it;
  }
  for (auto it = awaited_.begin(); it != awaited_.end();) {
    if (it->second.deadline_ms > now) {
      ++it;
      continue;
    }
    if (auto peer = it->second.peer.lock()) {
      out.add(peer, frame_of(refusal(it->second.request_id, CLUSTER_UNAVAILABLE,
                                     "the challenger's node did not answer")));
    }
    it = awaited_.erase(it);
  }
  if (now - last_retold_ms_ < kRetellMs) return;
  last_retold_ms_ = now;
  for (const PendingChallenge& c : book_.all()) {
    FriendsNote note;
    *note.mutable_pending() = cluster_challenge(c);
    broadcast(note);
  }
}

}  // namespace duelhall::server
