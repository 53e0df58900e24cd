// A match in a cluster (docs/cluster.md, Failover): the owner's fencing epoch goes to the match's
// log, and a match this node no longer owns stops here. It stops when the heartbeat says another
// node adopted it, or when the store refuses one of its writes as fenced (a node that was only
// slow). It is not ended: nothing is written (the new owner's log is the match's), nobody is told
// an outcome. The refused action is answered MATCH_MOVED, never OK, and the players' and
// spectators' connections close as ones to open again: their Hello reaches the new owner.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

namespace net = boost::asio;

void Match::owned(int64_t epoch, std::string node) {
  net::post(strand_, [self = shared_from_this(), epoch, node = std::move(node)] {
    if (self->status_ == WAITING || self->status_ == PLAYING) {
      self->log_->owned(self->id_, epoch, node, true);
    }
  });
}

void Match::moved(std::string why) {
  net::post(strand_, [self = shared_from_this(), why = std::move(why)] {
    Outbox out;
    self->stop_moved(why, out);
  });
}

void Match::stop_moved(const std::string& why, Outbox& out) {
  // Nothing held may be sent: it shows steps the new owner may not have.
  held_out_.clear();
  durable_ticket_ = logged_ticket_;
  const std::string reason = "match " + std::to_string(id_) + " moved to another node (" + why +
                             "): reconnect with your resume token";
  for (const HeldReply& r : held_replies_) {
    out.add(r.peer, frame_of(reply(r.request_id, MATCH_MOVED, reason)));
  }
  held_replies_.clear();
  // Sent before the connections close, which sends what was queued first.
  out.flush();
  if (status_ != WAITING && status_ != PLAYING) return;  // it ended here first
  spdlog::warn("match {}: stopped on this node: {}", id_, why);
  status_ = ABORTED;  // on this node only: nothing is logged, the adopter plays on
  live_.release();
  for (auto& slot : seats_) stop_clock(slot);
  bot_timer_->cancel();
  spectator_timer_->cancel();
  delayed_.clear();
  // Forgotten here before any connection closes: a client that comes back at once (1012) must
  // be sent on to the adopter, not find the match still listed on this node and be welcomed
  // without its seat (seen under load, when this strand's thread lost the core after a close).
  hub_.moved_away(id_);
  // A WebSocket close reason holds at most 123 bytes.
  const std::string close_reason =
      "MATCH_MOVED: match " + std::to_string(id_) + " moved to another node; reconnect";
  for (auto& slot : seats_) {
    if (slot.occupant != SeatInfo::HUMAN || !slot.player) continue;
    slot.player->remove_match(this);
    if (auto peer = slot.player->peer()) peer->close_to_reconnect(close_reason);
  }
  for (const Spectator& spectator : spectators_) {
    if (auto peer = spectator.peer.lock()) peer->close_to_reconnect(close_reason);
  }
  spectators_.clear();
}

}  // namespace duelhall::server
