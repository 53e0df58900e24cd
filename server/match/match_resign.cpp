// The ways a match ends early on its players' word: a resignation, and the last human leaving.
// Both use force_end, the clock forfeit's path, so the log, the lobby and every viewer learn of
// the end the same way.
#include <spdlog/spdlog.h>

#include "fairness/server_ending.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

void Match::resign(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player,
                   uint64_t request_id) {
  run([this, peer, player, request_id](Outbox& out) {
    const int seat = seat_of(player.get());
    ResultCode code = OK;
    std::string reason;
    if (seat < 0) {
      code = is_spectator(peer->peer_id()) ? NOT_ALLOWED_FOR_SPECTATORS : NOT_IN_MATCH;
      reason = "you have no seat in this match";
    } else if (status_ == WAITING) {
      code = WRONG_MATCH_STATE;
      reason = "the match has not started: leave it instead";
    } else if (status_ != PLAYING) {
      code = MATCH_OVER;
      reason = "the match has ended";
    } else if (storage_wait_) {
      out.add(peer, frame_of(storage_refusal(request_id)));
      return;
    }
    // With an OK, held (as the end's news) until the end is stored.
    out.add(peer, frame_of(reply(request_id, code, reason)));
    if (code != OK) return;
    // As a clock forfeit: with more than two seats every other seat shares the win.
    engine::SeatMask winners;
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
      if (s != seat) winners.add(s);
    }
    spdlog::info("match {}: seat {} resigns", id_, seat);
    force_end(fairness::resigned(seat), winners, false, out);
    // Answered STORAGE_UNAVAILABLE instead should the end be taken back (match_storage.cpp).
    if (durable_ticket_ < logged_ticket_)
      held_replies_.push_back({logged_ticket_, peer, request_id});
  });
}

void Match::after_last_human(Outbox& out) {
  if (status_ != PLAYING) return;
  for (const auto& slot : seats_) {
    if (slot.occupant == SeatInfo::HUMAN) return;
  }
  if (hub_.config().abandoned_matches == "bots") return;
  spdlog::info("match {}: every player has left, the match ends", id_);
  force_end(fairness::every_player_left(), {}, false, out);
}

}  // namespace duelhall::server
