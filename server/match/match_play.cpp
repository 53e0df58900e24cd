// Match play: starting, applying actions and the end of a match, including the end of a decision
// clock (a forfeit or the bot's move). What each viewer is told of a step is in match_views.cpp;
// the spectators' delayed stream and the arming of bots and clocks are in match_timers.cpp.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "core/version.hpp"
#include "fairness/commitment.hpp"
#include "fairness/server_ending.hpp"
#include "match/match.hpp"
#include "metrics/log_field.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

namespace net = boost::asio;
using engine::Viewer;

void Match::start(Outbox& out) {
  std::map<std::string, std::string> raw(settings_.params().begin(), settings_.params().end());
  std::vector<std::string> options;
  for (const auto& seat : seats_) options.push_back(seat.option);
  auto created = hub_.registry().create(settings_.ruleset(), static_cast<int>(seats_.size()), seed_,
                                        raw, options);
  if (!created.state) {
    spdlog::warn("match {} could not start: {}", id_, created.error);
    force_end(fairness::could_not_start(created.error), {}, true, out);
    return;
  }
  state_ = std::move(created.state);
  status_ = PLAYING;
  MatchStart record{state_->config(), {}, {}, hosted_record()};
  for (const auto& seat : seats_) {
    const bool human = seat.occupant == SeatInfo::HUMAN;
    record.names.push_back(human ? seat.player->name() : "bot");
    record.tokens.push_back(human ? seat.player->token() : std::string());
  }
  log_->started(id_, record);
  record_accounts();  // for the players' histories and ratings (match_rated.cpp)
  spdlog::info("match {} started: {}, {} seats", id_, settings_.ruleset(), seats_.size());
  arm_clocks();
  for (size_t i = 0; i < seats_.size(); ++i) {
    SeatSlot& slot = seats_[i];
    if (slot.occupant != SeatInfo::HUMAN) continue;
    slot.view = state_->view(Viewer::of_seat(static_cast<int>(i)));
    out.add(slot.player->peer(), frame_of(snapshot(static_cast<int>(i))));
  }
  spectator_view_ = state_->view(Viewer::spectator());
  for (const auto& s : spectators_) out.add(s.peer.lock(), frame_of(snapshot(-1)));
  publish();
  schedule_bots();
}

void Match::act(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, SubmitAction request,
                uint64_t request_id) {
  const auto received = std::chrono::steady_clock::now();
  run([this, peer, player, request, request_id, received](Outbox& out) {
    current_peer_ = peer;
    current_request_ = request_id;
    answered_ = false;
    const int seat = seat_of(player.get());
    ResultCode code = OK;
    std::string reason;
    Outbox updates;
    if (seat < 0) {
      code = is_spectator(peer->peer_id()) ? NOT_ALLOWED_FOR_SPECTATORS : NOT_IN_MATCH;
      reason = "you have no seat in this match";
    } else if (status_ == WAITING) {
      code = WRONG_MATCH_STATE;
      reason = "the match has not started";
    } else if (status_ != PLAYING) {
      code = MATCH_OVER;
      reason = "the match has ended";
    } else if (storage_wait_) {
      code = STORAGE_UNAVAILABLE;
    } else if (request.seq() != 0 && request.seq() != seq_) {
      code = STALE_SEQ;
      reason = "the match has moved on since that view";
    } else {
      apply(seat, engine::Action::from_code(request.code()), updates, code, reason);
    }
    current_peer_.reset();
    if (code == STORAGE_UNAVAILABLE) {
      out.add(peer, frame_of(storage_refusal(request_id)));
    } else if (!answered_) {
      out.add(peer, frame_of(reply(request_id, code, reason)));
    }
    // The OK waits for the log; should the log fail, the actor is told so instead.
    if (code == OK && durable_ticket_ < logged_ticket_) {
      held_replies_.push_back({logged_ticket_, peer, request_id, received});
    } else if (code == OK) {
      counts_.action_latency_since(received);
    }
    out.append(std::move(updates));
  });
}

bool Match::apply(int seat, engine::Action action, Outbox& out, ResultCode& code,
                  std::string& reason) {
  // Reused by every match on this thread: apply is never re-entered (bots and clocks post).
  thread_local std::vector<engine::Event> events;
  events.clear();
  engine::ApplyResult result = state_->apply(seat, action, &events);
  if (!result.ok()) {
    code = result_of(result.code);
    reason = result.reason;
    return false;
  }
  stop_clock(seats_[seat]);
  counts_.actions.add();
  // Whatever shows the step is held until the log has it on disk (release()).
  const auto index = static_cast<uint32_t>(state_->history().size() - 1);
  const uint64_t ticket = log_ticket(index);
  log_->appended(id_, index, {seat, action},
                 [self = shared_from_this(), ticket](const LogOutcome& outcome) {
                   self->durable(ticket, outcome);
                 });
  after_step(events, out);
  return true;
}

void Match::after_step(const std::vector<engine::Event>& events, Outbox& out) {
  ++seq_;
  if (state_->terminal()) {
    status_ = FINISHED;
  } else {
    arm_clocks();
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].occupant == SeatInfo::HUMAN) {
      send_seat_update(static_cast<int>(i), events, true, out);
    }
  }
  queue_spectator_step(events, true, out);
  if (status_ == FINISHED) {
    ended(state_->outcome().reason);
  } else {
    schedule_bots();
  }
}

void Match::clock_expired(int seat, uint64_t generation, Outbox& out) {
  SeatSlot& slot = seats_[seat];
  if (generation != slot.clock_generation || status_ != PLAYING) return;
  stop_clock(slot);
  if (settings_.clock_policy() == CLOCK_FORFEIT) {
    engine::SeatMask winners;
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
      if (s != seat) winners.add(s);
    }
    force_end(fairness::forfeited_on_time(seat), winners, false, out);
    return;
  }
  // The clock's move is made now, on the strand: a searching level gives way to its heuristic.
  std::unique_ptr<engine::Bot> bot = hub_.registry().make_bot(ruleset_.name, settings_.bot_level());
  if (bot->searches()) bot = hub_.registry().make_bot(ruleset_.name, "heuristic");
  ResultCode code = OK;
  std::string reason;
  if (!apply(seat, bot->choose(*state_, seat, bot_rng_), out, code, reason)) {
    throw std::logic_error("the clock's bot chose a refused action: " + reason);
  }
}

void Match::force_end(std::string reason, engine::SeatMask winners, bool aborted, Outbox& out) {
  Outcome outcome;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (winners.has(s)) outcome.add_winners(static_cast<uint32_t>(s));
  }
  outcome.set_reason(reason);
  forced_outcome_ = outcome;
  status_ = aborted ? ABORTED : FINISHED;
  ++seq_;
  const std::vector<engine::Event> events{engine::Event::public_event(reason)};
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].occupant == SeatInfo::HUMAN) {
      send_seat_update(static_cast<int>(i), events, false, out);
    }
  }
  queue_spectator_step(events, false, out);
  ended(reason);
}

void Match::ended(const std::string& result) {
  live_.release();
  for (auto& slot : seats_) {
    stop_clock(slot);
    // A pending wait would keep the match alive until the clock ran out, long after it is gone
    // from the listing.
    if (slot.clock) slot.clock->cancel();
    // Nothing changes any more: a player who comes back gets a snapshot (it carries the
    // outcome), so what was held for reconnects goes now, not when the listing ends.
    Fifo<HeldUpdate>().swap(slot.held);
    std::vector<std::pair<uint64_t, uint32_t>>().swap(slot.labels_told);
    slot.words_told.clear();
  }
  if (bot_timer_) bot_timer_->cancel();
  if (state_) {
    MatchEnd end;
    end.aborted = status_ == ABORTED;
    end.reason = result;
    if (forced_outcome_) {
      for (uint32_t s : forced_outcome_->winners()) end.winners.add(static_cast<int>(s));
    } else {
      const engine::Outcome outcome = state_->outcome();
      end.winners = outcome.winners;
      end.scores = outcome.scores;
    }
    end.steps = static_cast<int64_t>(state_->history().size());
    end_to_store_ = end;
    store_end();
  }
  spdlog::info("match {} ended after {} actions: {} ({})", id_,
               state_ ? state_->history().size() : 0, metrics::log_field(result),
               status_ == ABORTED ? "aborted" : "finished");
  publish();
  linger_timer_->expires_after(std::chrono::seconds(hub_.config().finished_linger_seconds));
  linger_timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->hub_.remove_match(self->id_);
  });
}

void Match::fault(const std::string& what, Outbox& out) {
  spdlog::error("match {}: engine fault, ending the match: {}", id_, what);
  if (current_peer_) {
    out.add(current_peer_, frame_of(reply(current_request_, INTERNAL_ERROR,
                                          "the server stopped this match after a fault")));
  }
  if (status_ == PLAYING || status_ == WAITING) {
    force_end(fairness::stopped_by_fault(), {}, true, out);
  }
}

}  // namespace duelhall::server
