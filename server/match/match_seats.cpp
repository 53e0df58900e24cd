// Who sits where now (Match::seats_now), read on the strand that owns the seats.
#include "match/match.hpp"

namespace duelhall::server {

void Match::seats_now(std::function<void(const SeatsNow&)> done) {
  run([this, done = std::move(done)](Outbox&) {
    SeatsNow now;
    now.status = status_;
    now.settings = settings_;
    for (const SeatSlot& slot : seats_) {
      now.players.push_back(slot.occupant == SeatInfo::HUMAN ? slot.player : nullptr);
      now.options.push_back(slot.option);
    }
    done(now);
  });
}

}  // namespace duelhall::server
