// Match durability: what a match's strand produces after an accepted action waits until the
// action log reports that action durable (see match.hpp), and a failing log ends the match.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include <algorithm>

#include "fairness/server_ending.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

namespace net = boost::asio;

void Match::release(Outbox&& out) {
  if (held_out_.empty() && durable_ticket_ >= logged_ticket_) {
    out.flush();
  } else if (!out.empty()) {
    held_out_.emplace_back(logged_ticket_, std::move(out));
  }
}

void Match::durable(uint64_t ticket, const std::string& error) {
  if (strand_.running_in_this_thread()) {
    on_durable(ticket, error);  // an in-memory log reports at once
    return;
  }
  net::post(strand_,
            [self = shared_from_this(), ticket, error] { self->on_durable(ticket, error); });
}

void Match::on_durable(uint64_t ticket, const std::string& error) {
  if (!error.empty() && log_->fenced()) {
    // Another node owns the match now (match_moved.cpp): stopped here, not ended.
    Outbox out;
    stop_moved("the store refused this node's write: " + error, out);
    return;
  }
  if (!error.empty()) {
    // The logs complete in order, so every held outbox shows this step or a later one: none of
    // them may be sent.
    held_out_.clear();
    const uint64_t unsent = logged_ticket_ - std::min(ticket, logged_ticket_) + 1;
    durable_ticket_ = logged_ticket_;  // nothing more waits for the log
    Outbox out;
    for (const HeldReply& r : held_replies_) {
      out.add(r.peer, frame_of(reply(r.request_id, INTERNAL_ERROR,
                                     "the server could not store this action")));
    }
    held_replies_.clear();
    if (status_ == PLAYING) {
      spdlog::error("match {}: the action log failed, ending the match: {}", id_, error);
      forget_unstored(unsent);
      force_end(fairness::stopped_unstored(), {}, true, out);
    }
    out.flush();
    return;
  }
  durable_ticket_ = std::max(durable_ticket_, ticket);
  while (!held_replies_.empty() && held_replies_.front().ticket <= durable_ticket_) {
    counts_.action_latency_since(held_replies_.front().received);
    held_replies_.pop_front();
  }
  while (!held_out_.empty() && held_out_.front().first <= durable_ticket_) {
    held_out_.front().second.flush();
    held_out_.pop_front();
  }
}

void Match::forget_unstored(size_t unsent) {
  // Each ticket counted one seq: the abort takes the failed step's seq, so clients see no gap.
  seq_ -= unsent;
  const auto& history = state_->history();
  const size_t kept = history.size() - std::min(unsent, history.size());
  std::vector<engine::Step> steps(history.begin(),
                                  history.begin() + static_cast<std::ptrdiff_t>(kept));
  std::string replay_error;
  auto rebuilt = engine::replay(hub_.registry(), state_->config(), steps, replay_error);
  if (!rebuilt) return;  // the views stay ahead; the match ends all the same
  state_ = std::move(rebuilt);
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].occupant == SeatInfo::HUMAN) {
      seats_[i].view = state_->view(engine::Viewer::of_seat(static_cast<int>(i)));
    }
  }
  delayed_.erase(std::remove_if(delayed_.begin(), delayed_.end(),
                                [&](const DelayedStep& step) { return step.seq > seq_; }),
                 delayed_.end());
  if (delayed_.empty()) spectator_view_ = state_->view(engine::Viewer::spectator());
  spectator_seq_ = std::min(spectator_seq_, seq_);
}

}  // namespace duelhall::server
