// Young Jedi's phrase book (core/phrase.hpp): every event of the ruleset is said as one of these
// templates. Lists: "card", one entry per catalogue card (its title, by catalogue index), and
// "planet" (Table::planet). A card is named "{card} (destiny {n})" the way action labels name it,
// or by its title alone where the text speaks of a card in play.
#pragma once

#include <cstdint>

#include "core/phrase.hpp"
#include "young_jedi/catalogue.hpp"

namespace duelhall::engine::young_jedi {

// Template ids: the wire sends these numbers (protocol 5), so new ones go at the end.
enum PhraseId : uint16_t {
  kSaidTakesDeployDamage = 1,    // seat, amount, card, planet
  kSaidSearchesDrawDeck,         // seat, card, planet
  kSaidDeployedFromDeck,         // seat, card, destiny
  kSaidDeployedNothingFromDeck,  // seat, damage
  kSaidInitiatedDuel,            // seat, character, weapon, target
  kSaidDefendsWith,              // seat, card
  kSaidZeroDamageDiscarded,      // seat, card
  kSaidAnakinDestiny,            // seat, card, destiny
  kSaidDuelsAtPower,             // seat, power, cards drawn
  kSaidAttackedWith,             // seat, card, destiny
  kSaidBlockedWith,              // seat, card, destiny
  kSaidScoredHit,                // hitter, hit
  kSaidExtraHit,                 // card, destiny
  kSaidUsedDuelingText,          // seat, card, destiny
  kSaidDefeated,                 // seat, card
  kSaidBothOutOfDuelingCards,    // hits of seat 0, hits of seat 1
  kSaidTakesDamage,              // seat, damage
  kSaidGoesFirst,                // seat
  kSaidDrew,                     // seat, card, destiny
  kSaidDrewACard,                // seat
  kSaidChosePlanet,              // seat, planet
  kSaidDeployed,                 // seat, card, destiny
  kSaidTakesOfferedDraw,         // seat
  kSaidDoesNotDraw,              // seat
  kSaidConceded,                 // seat
  kSaidBothDeckedOut,            //
  kSaidDeckVictory,              // loser, winner
  kSaidCount,
};

const PhraseBook& phrase_book();

// A card as action labels name it: its title and "(destiny N)" (the template's next two slots).
inline Phrase& named(Phrase& phrase, uint16_t c) {
  return phrase.entry(c).number(card(c).destiny);
}
inline Phrase named(Phrase&& phrase, uint16_t c) {
  return named(phrase, c);
}

}  // namespace duelhall::engine::young_jedi
