// A match rebuilt from its action log after a restart: its seats wait for their players'
// reconnects (with the tokens they had), and go to the bot if nobody comes back in time. A match
// that had ended shortly before comes back ended, only to be shown to whoever comes back.
#include <spdlog/spdlog.h>

#include "core/version.hpp"
#include "fairness/commitment.hpp"
#include "match/match.hpp"

namespace duelhall::server {

using engine::Viewer;

std::string Match::hosted_record() const {
  HostedMatch record;
  *record.mutable_settings() = settings_;
  record.set_invite_code(invite_);
  record.set_host(host_name_);
  return record.SerializeAsString();
}

void Match::recover(std::unique_ptr<engine::State> state, const std::vector<std::string>& names,
                    const std::vector<bool>& humans, RecoveredSpectators&& spectators,
                    std::optional<RecoveredEnding> ending) {
  state_ = std::move(state);
  status_ = PLAYING;
  commitment_ = fairness::seed_commitment(state_->config().seed, engine::kEngineVersion);
  // Every accepted action counted one seq, so a reconnecting client's cursor still fits.
  seq_ = state_->history().size();
  if (ending) {
    status_ = ending->aborted ? ABORTED : FINISHED;
    live_.release();
    if (ending->aborted || !state_->terminal()) {
      // Ended by the server (a forfeit, a fault), not by the rules: that end counted a seq too.
      forced_outcome_ = ending->outcome;
      ++seq_;
    }
  }
  recovered_seat_.assign(seats_.size(), false);
  for (size_t i = 0; i < seats_.size(); ++i) {
    SeatSlot& slot = seats_[i];
    slot.option = i < state_->config().seat_options.size() ? state_->config().seat_options[i] : "";
    if (!humans[i]) {
      seat_bot(static_cast<int>(i), settings_.bot_level());
      continue;
    }
    // A stand-in with the seat's name and no connection, until the player reclaims the seat.
    slot.occupant = SeatInfo::HUMAN;
    slot.player = std::make_shared<Player>(0, i < names.size() ? names[i] : "", std::string());
    slot.connected = false;
    slot.view = state_->view(Viewer::of_seat(static_cast<int>(i)));
    recovered_seat_[i] = true;
  }
  // The spectators go on where the delay had them, and the held steps come out as they fall due.
  spectator_seq_ = spectators.seq;
  spectator_view_ = std::move(spectators.view);
  const auto now = Clock::now();
  for (auto& held : spectators.held) {
    delayed_.push_back({held.seq, now + std::chrono::milliseconds(held.due_in_ms),
                        std::move(held.view), std::move(held.events)});
  }
  run([this, listed_for = ending ? std::optional(ending->listed_for) : std::nullopt](Outbox& out) {
    release_spectators(out);
    if (listed_for) {
      publish();
      linger_timer_->expires_after(*listed_for);
      linger_timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (!ec) self->hub_.remove_match(self->id_);
      });
      return;
    }
    if (state_->terminal()) {
      // Its last step was stored, its end was not: it ends now, as it would have then.
      status_ = FINISHED;
      ended(state_->outcome().reason);
      return;
    }
    publish();
    arm_clocks();
    schedule_bots();
  });
}

void Match::reclaim(int seat, std::shared_ptr<Player> player) {
  run([this, seat, player](Outbox&) {
    if (seat < 0 || static_cast<size_t>(seat) >= recovered_seat_.size() ||
        !recovered_seat_[static_cast<size_t>(seat)]) {
      return;
    }
    recovered_seat_[static_cast<size_t>(seat)] = false;
    seats_[static_cast<size_t>(seat)].player = std::move(player);
    spdlog::info("match {}: seat {} reclaimed after a restart", id_, seat);
  });
}

void Match::recovery_grace_over() {
  run([this](Outbox&) {
    for (size_t i = 0; i < recovered_seat_.size(); ++i) {
      if (!recovered_seat_[i]) continue;
      recovered_seat_[i] = false;
      // abandoned() finds the seat by its stand-in player and hands it to the bot.
      abandoned(seats_[i].player);
    }
  });
}

}  // namespace duelhall::server
