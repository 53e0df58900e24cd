// What runs on a match's timers: the spectators' delayed stream, the bots' turns (their moves
// are match_bots.cpp) and the decision clocks (what a clock's expiry does is
// Match::clock_expired, in match_play.cpp).
#include <algorithm>

#include "match/match.hpp"
#include "net/messages.hpp"
#include "wire_diff.hpp"

namespace duelhall::server {

using engine::Viewer;

void Match::queue_spectator_step(const std::vector<engine::Event>& events, bool fresh_view,
                                 Outbox& out) {
  if (!settings_.spectators_allowed()) return;
  const bool delayed =
      settings_.spectator_delay_actions() > 0 || settings_.spectator_delay_seconds() > 0;
  if (!delayed && spectators_.empty() && status_ == PLAYING) {
    spectator_view_stale_ = true;  // computed when someone starts watching
    return;
  }
  DelayedStep step;
  step.seq = seq_;
  step.due = Clock::now() + std::chrono::seconds(settings_.spectator_delay_seconds());
  if (fresh_view) {
    step.view = state_->view(Viewer::spectator());
  } else {
    step.view = delayed_.empty() ? spectator_view_ : delayed_.back().view;
  }
  for (const auto& e : events) {
    if (auto text = e.text_for(Viewer::spectator())) step.events.emplace_back(*text);
  }
  delayed_.push_back(std::move(step));
  release_spectators(out);
}

void Match::release_spectators(Outbox& out) {
  const bool over = status_ != PLAYING;
  const auto now = Clock::now();
  while (!delayed_.empty()) {
    DelayedStep& front = delayed_.front();
    const bool enough_after = delayed_.size() > settings_.spectator_delay_actions();
    if (!over && (!enough_after || front.due > now)) break;
    const bool last = over && delayed_.size() == 1;
    spectator_seq_ = front.seq;
    ServerMessage m;
    MatchUpdate* u = m.mutable_update();
    u->set_match_id(id_);
    u->set_seq(spectator_seq_);
    wire::make_patch(spectator_view_, front.view, *u->mutable_patch());
    for (auto& text : front.events) u->add_events(std::move(text));
    u->set_status(last ? status_ : PLAYING);
    if (last) fill_outcome(*u->mutable_outcome());
    spectator_view_ = std::move(front.view);
    delayed_.pop_front();
    Frame frame = frame_of(m);
    for (const auto& s : spectators_) out.add(s.peer.lock(), frame);
  }
  arm_spectator_timer();
}

void Match::arm_spectator_timer() {
  if (delayed_.empty() || delayed_.size() <= settings_.spectator_delay_actions()) return;
  spectator_timer_->expires_at(delayed_.front().due);
  spectator_timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->run([self](Outbox& out) { self->release_spectators(out); });
  });
}

void Match::schedule_bots() {
  if (bot_scheduled_ || status_ != PLAYING || storage_wait_) return;
  const engine::SeatMask pending = state_->pending();
  bool any = false;
  bool human_pending = false;
  for (size_t i = 0; i < seats_.size(); ++i) {
    const bool due = pending.has(static_cast<int>(i));
    any |= seats_[i].occupant == SeatInfo::BOT && due;
    human_pending |= seats_[i].occupant == SeatInfo::HUMAN && due;
  }
  if (!any) return;
  bot_scheduled_ = true;
  auto self = shared_from_this();
  // The delay paces the moves a player waits to see. A decision a human makes at the same time
  // (a secret simultaneous setup, 27 small steps in Force Battles) is hidden until both have
  // made it, so there the bot's steps go at once: paced, they kept the human waiting 10 s. A
  // busy server holds every bot's move back a while longer (match/bot_pacer.hpp).
  const uint32_t delay_ms =
      std::max(human_pending ? 0 : settings_.bot_delay_ms(), hub_.bot_pace_ms());
  if (delay_ms == 0) {
    // Posted, not called: a bots-only match then shares the threads fairly with the others.
    run([self](Outbox& out) { self->bot_step(out); });
    return;
  }
  bot_timer_->expires_after(std::chrono::milliseconds(delay_ms));
  bot_timer_->async_wait([self](boost::system::error_code ec) {
    if (!ec) self->run([self](Outbox& out) { self->bot_step(out); });
  });
}

void Match::stop_clock(SeatSlot& slot) {
  slot.deadline = {};
  ++slot.clock_generation;
}

void Match::arm_clocks() {
  if (settings_.clock_seconds() == 0 || status_ != PLAYING || storage_wait_) return;
  const engine::SeatMask pending = state_->pending();
  for (size_t i = 0; i < seats_.size(); ++i) {
    SeatSlot& slot = seats_[i];
    const int seat = static_cast<int>(i);
    if (slot.occupant != SeatInfo::HUMAN || !pending.has(seat)) {
      if (slot.deadline != Clock::time_point{}) stop_clock(slot);
      continue;
    }
    if (slot.deadline != Clock::time_point{}) continue;  // this decision's clock already runs
    slot.deadline = Clock::now() + std::chrono::seconds(settings_.clock_seconds());
    const uint64_t generation = ++slot.clock_generation;
    slot.clock->expires_at(slot.deadline);
    slot.clock->async_wait(
        [self = shared_from_this(), seat, generation](boost::system::error_code ec) {
          if (ec) return;
          self->run([self, seat, generation](Outbox& out) {
            self->clock_expired(seat, generation, out);
          });
        });
  }
}

}  // namespace duelhall::server
