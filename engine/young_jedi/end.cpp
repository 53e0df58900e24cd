// Drawing, damage and the deck victory (Y6, Y9): the moves that can end the game.
#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {

bool YoungJediState::draw_into(int seat, std::vector<uint16_t>& zone, bool dueling) {
  // Y9: the player who draws the last card of her draw deck, or must draw from an empty one,
  // loses (deck victory), except for a card that goes into a dueling hand: dueling cards still
  // count as draw deck (seed 003, Y19). Callers settle at once (settle_deck_outs).
  Player& p = table_.players[seat];
  if (p.draw.empty()) {
    if (!dueling) decked_out_.add(seat);
    return false;
  }
  zone.push_back(p.draw.back());
  p.draw.pop_back();
  if (p.draw.empty() && !dueling) decked_out_.add(seat);
  return true;
}

void YoungJediState::take_damage(int seat, int amount) {
  // Y6, Y9: damage discards from the top of the draw deck; discarding its last card, or having
  // to discard from an empty deck, loses.
  Player& p = table_.players[seat];
  for (int i = 0; i < amount; ++i) {
    if (p.draw.empty()) {
      decked_out_.add(seat);
      return;
    }
    p.discard.push_back(p.draw.back());
    p.draw.pop_back();
  }
  if (p.draw.empty() && amount > 0) decked_out_.add(seat);
}

bool YoungJediState::settle_deck_outs() {
  // Y9: "a deck victory is immediate": every caller stops when this returns true, so nothing
  // later in the same action happens. Both players at once only within one fight's destiny
  // draws, which are all made before the decks are checked: a tie.
  if (terminal()) return true;
  if (decked_out_.empty()) return false;
  table_.phase = Phase::kOver;
  if (decked_out_.count() == 2) {
    table_.winners = SeatMask::first_n(2);
    table_.end_reason = static_cast<uint8_t>(EndReason::kBothDeckedOut);
    say(Phrase(kSaidBothDeckedOut));
  } else {
    int loser = decked_out_.first();
    table_.winners = SeatMask::only(1 - loser);
    table_.end_reason = static_cast<uint8_t>(EndReason::kDeckVictory);
    say(Phrase(kSaidDeckVictory).seat(loser).seat(1 - loser));
  }
  decked_out_ = SeatMask();
  return true;
}

}  // namespace duelhall::engine::young_jedi
