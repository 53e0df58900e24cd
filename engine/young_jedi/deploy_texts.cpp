// Ruling Y29: card text that acts when a card deploys to the duel's planet: damage to the
// opponent, an optional draw, and a search of the draw deck for a card to deploy (seed 001,
// "Deploying cards from your draw deck").
#include <algorithm>
#include <stdexcept>

#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {
namespace {

Action card_action(ActionKind kind, uint16_t c) {
  return Action::make(static_cast<uint8_t>(kind), static_cast<uint8_t>(c & 0xff),
                      static_cast<uint8_t>(c >> 8));
}

const Effect& search_text(const Table& t) {
  for (const Effect& e : card(static_cast<uint16_t>(t.search_text_card)).effects) {
    if (e.kind == EffectKind::kMayDeployFromDeckOnDeployTo) return e;
  }
  throw std::logic_error("searching without a search text");
}

}  // namespace

std::vector<uint16_t> search_candidates(const Table& t) {
  std::vector<uint16_t> found;
  if (t.phase != Phase::kSearchDrawDeck) return found;
  const Effect& text = search_text(t);
  for (uint16_t c : t.players[t.to_act].draw) {
    // The texts name characters ("one senator", "a Tusken Raider"), never a weapon whose title
    // shares the word (Neimoidian Viewscreen).
    if (card(c).type == CardType::kCharacter && matches(text.match, card(c))) found.push_back(c);
  }
  // Sorted: the searcher learns what her deck holds, never its order (Y10).
  std::sort(found.begin(), found.end());
  return found;
}

void YoungJediState::deployed_to_planet(int seat, uint16_t deployed) {
  // Y29: the duel's planet is where every card deploys, so text that acts when a card deploys to
  // that planet applies (and text naming another planet does nothing).
  for (const Effect& e : card(deployed).effects) {
    if (table_.planet == kAbsent || e.planet != std::string_view(kPlanetNames[table_.planet])) {
      continue;
    }
    if (e.kind == EffectKind::kOpponentDamageOnDeployTo) {
      // Darth Sidious, The Phantom Menace. Y6: damage discards; Y9: emptying the deck wins.
      say(Phrase(kSaidTakesDeployDamage)
              .seat(1 - seat)
              .number(e.amount)
              .entry(deployed)
              .entry(table_.planet));
      take_damage(1 - seat, e.amount);
    } else if (e.kind == EffectKind::kMayDrawOnDeployTo && !table_.players[seat].draw.empty()) {
      // Baskol Yeesrim, Gran Senator: "you may draw one card", offered, never made for her (Y9).
      table_.phase = Phase::kOptionalDraw;
      table_.to_act = seat;
      table_.draw_resumes_deploy = true;
    } else if (e.kind == EffectKind::kMayDeployFromDeckOnDeployTo) {
      // Valorum, Nute Gunray, Rune Haako, Orr'UrRuuR'R, Corix Venne. The search is entered
      // whatever the deck holds, so the opponent learns nothing from it (seed 001: "You don't
      // have to show your opponent the cards in your draw deck").
      table_.phase = Phase::kSearchDrawDeck;
      table_.to_act = seat;
      table_.search_text_card = deployed;
      say(Phrase(kSaidSearchesDrawDeck).seat(seat).entry(deployed).entry(table_.planet));
    }
  }
}

void YoungJediState::legal_search_actions(std::vector<Action>& out) const {
  // Seed 001: one copy of a named card, paid with deploy counters (no text here says "for
  // free"); or none at all, for which she takes the penalty.
  for (uint16_t c : search_candidates(table_)) {
    if (card(c).counters >= 0 && card(c).counters <= table_.counters_left) {
      out.push_back(card_action(ActionKind::kDeployFromDeck, c));
    }
  }
  out.push_back(Action::make(static_cast<uint8_t>(ActionKind::kEndSearch)));
}

void YoungJediState::end_search(int seat, int found) {
  // Seed 001: "When you're done searching through your draw deck ... you must reshuffle that
  // deck", and a player who deployed nothing takes the penalty "after you reshuffle".
  const int penalty = search_text(table_).amount;
  Player& me = table_.players[seat];
  table_.search_text_card = kAbsent;
  table_.phase = Phase::kDeploy;
  table_.to_act = table_.active;
  if (found != kAbsent) {
    me.draw.erase(std::find(me.draw.begin(), me.draw.end(), static_cast<uint16_t>(found)));
    me.in_play.push_back(static_cast<uint16_t>(found));
    table_.counters_left -= card(static_cast<uint16_t>(found)).counters;
    say(named(Phrase(kSaidDeployedFromDeck).seat(seat), static_cast<uint16_t>(found)));
  }
  shuffle(std::span<uint16_t>(me.draw), "shuffle draw deck after a search " + seat_ref(seat));
  if (found == kAbsent) {
    say(Phrase(kSaidDeployedNothingFromDeck).seat(seat).number(penalty));
    take_damage(seat, penalty);  // Y6, Y9: her last card so discarded is a deck victory
    return;
  }
  // The card found deploys to the planet too, so its own text acts (Nute Gunray finds Rune
  // Haako, who may search for a Neimoidian).
  deployed_to_planet(seat, static_cast<uint16_t>(found));
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
