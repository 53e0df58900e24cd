// Drawing, damage and the deck victory (Y6, Y9): the moves that can end the game, and the card
// texts that deal damage or offer a draw when a card deploys (Y29).
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
    if (wants_events())
      emit(Event::public_event("both players drew their last card in the same fight: a tie"));
  } else {
    int loser = decked_out_.first();
    table_.winners = SeatMask::only(1 - loser);
    table_.end_reason = static_cast<uint8_t>(EndReason::kDeckVictory);
    if (wants_events())
      emit(Event::public_event(seat_ref(loser) + " has no draw deck left: " + seat_ref(1 - loser) +
                               " wins by deck victory"));
  }
  decked_out_ = SeatMask();
  return true;
}

void YoungJediState::deployed_to_planet(int seat, uint16_t deployed) {
  // Y29: the duel's planet is where every card deploys, so text that acts when a card deploys to
  // that planet applies (and text naming another planet does nothing).
  for (const Effect& e : card(deployed).effects) {
    if (table_.planet == kAbsent || e.match != std::string_view(kPlanetNames[table_.planet])) {
      continue;
    }
    if (e.kind == EffectKind::kOpponentDamageOnDeployTo) {
      // Darth Sidious, The Phantom Menace. Y6: damage discards; Y9: emptying the deck wins.
      if (wants_events())
        emit(Event::public_event(seat_ref(1 - seat) + " takes " + std::to_string(e.amount) +
                                 " damage: " + card(deployed).title + " deployed to " +
                                 kPlanetNames[table_.planet]));
      take_damage(1 - seat, e.amount);
    } else if (e.kind == EffectKind::kMayDrawOnDeployTo && !table_.players[seat].draw.empty()) {
      // Baskol Yeesrim, Gran Senator: "you may draw one card", offered, never made for her (Y9).
      table_.phase = Phase::kOptionalDraw;
      table_.to_act = seat;
      table_.draw_resumes_deploy = true;
    }
  }
}

void YoungJediState::after_optional_draw() {
  if (table_.draw_resumes_deploy) {
    table_.draw_resumes_deploy = false;
    table_.phase = Phase::kDeploy;
    table_.to_act = table_.active;
    return;
  }
  draw_step();
}

}  // namespace duelhall::engine::young_jedi
