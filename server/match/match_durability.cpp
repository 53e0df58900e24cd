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

uint64_t Match::log_ticket(size_t steps) {
  const uint64_t ticket = ++logged_ticket_;
  unstored_.push_back({ticket, steps, seq_});
  return ticket;
}

void Match::durable(uint64_t ticket, const LogOutcome& outcome) {
  if (strand_.running_in_this_thread()) {
    on_durable(ticket, outcome);  // an in-memory log reports at once
    return;
  }
  net::post(strand_,
            [self = shared_from_this(), ticket, outcome] { self->on_durable(ticket, outcome); });
}

void Match::on_durable(uint64_t ticket, const LogOutcome& outcome) {
  if (ticket <= stale_through_) return;  // a write taken back already (match_storage.cpp)
  const std::string& error = outcome.error;
  if (!error.empty() && log_->fenced()) {
    // Another node owns the match now (match_moved.cpp): stopped here, not ended.
    Outbox out;
    stop_moved("the store refused this node's write: " + error, out);
    return;
  }
  if (!error.empty() && outcome.retryable) {
    on_unstored(ticket, outcome);
    return;
  }
  if (!error.empty() && ticket != end_ticket_) {
    // The logs complete in order, so every held outbox shows this step or a later one: none of
    // them may be sent.
    held_out_.clear();
    std::optional<Unstored> failed;
    while (!unstored_.empty() && unstored_.front().ticket <= ticket) {
      failed = unstored_.front();
      unstored_.pop_front();
    }
    unstored_.clear();
    stale_through_ = logged_ticket_;
    durable_ticket_ = logged_ticket_;  // nothing more waits for the log
    end_to_store_.reset();             // an end after the failed step is not this match's
    Outbox out;
    for (const HeldReply& r : held_replies_) {
      out.add(r.peer, frame_of(reply(r.request_id, INTERNAL_ERROR,
                                     "the server could not store this action")));
    }
    held_replies_.clear();
    spdlog::error("match {}: the action log failed, ending the match: {}", id_, error);
    if (failed) forget_unstored(*failed);
    status_ = PLAYING;
    // The abort is stored before it is told (release() holds it behind its end).
    force_end(fairness::stopped_unstored(), {}, true, out);
    release(std::move(out));
    return;
  }
  // Stored; or an end the store refused (it ended there already): told all the same.
  durable_ticket_ = std::max(durable_ticket_, ticket);
  while (!unstored_.empty() && unstored_.front().ticket <= ticket) unstored_.pop_front();
  if (ticket == end_ticket_ && end_to_store_) {
    if (error.empty()) {
      report_rated_end(*end_to_store_);
      hub_.match_ended(id_, end_to_store_->winners.bits(), end_to_store_->aborted);
    }
    end_to_store_.reset();
  }
  while (!held_replies_.empty() && held_replies_.front().ticket <= durable_ticket_) {
    const auto received = held_replies_.front().received;
    if (received != Clock::time_point{}) counts_.action_latency_since(received);
    held_replies_.pop_front();
  }
  while (!held_out_.empty() && held_out_.front().first <= durable_ticket_) {
    held_out_.front().second.flush();
    held_out_.pop_front();
  }
}

void Match::forget_unstored(const Unstored& failed) {
  // The failed write's seq and those after it are given again, so clients see no gap.
  seq_ = failed.seq;
  const auto& history = state_->history();
  const size_t kept = std::min(failed.steps, history.size());
  if (kept < history.size()) {
    std::vector<engine::Step> steps(history.begin(),
                                    history.begin() + static_cast<std::ptrdiff_t>(kept));
    std::string replay_error;
    auto rebuilt = engine::replay(hub_.registry(), state_->config(), steps, replay_error);
    if (!rebuilt) return;  // the views stay ahead; the match ends all the same
    state_ = std::move(rebuilt);
  }
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
