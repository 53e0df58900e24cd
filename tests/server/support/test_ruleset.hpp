// A tiny ruleset for server tests only (never registered in the product): "high cards".
// Each seat holds `hand` hidden cards dealt from a shuffled deck of 1..8 (twice that for three
// seats). On its turn a seat plays one card face up and draws a replacement while the deck
// lasts; when every hand is empty the highest total of played cards wins. The parameter
// `explode_at` (0: never) makes the engine throw on that action, to test fault isolation. A seat
// may bring a colour (red or blue) as its seat option; two seats may not bring the same one.
//
// View (protobuf, canonical): 1 turn, 2 my hand (packed), 3 repeated Player {1 hand count,
// 2 played (packed), 3 score, 4 hand (packed, only to its owner or the omniscient viewer)},
// 4 deck count, 5 finished.
//
// "said_cards" is the same game with a phrase book (core/phrase.hpp), for protocol 5's phrases:
// a play is public ("@0 played 5"), a draw tells the drawer the card by name and its hand ("@0
// drew five", "@0 holds two, five") and the others "@0 drew a card". Its parameter `said` is
// "all" (every event said as a phrase) or "plays" (the draws said as texts).
#pragma once

#include "core/registry.hpp"

namespace duelhall::testing {

inline constexpr const char* kTestRuleset = "high_cards";
inline constexpr const char* kSaidRuleset = "said_cards";
void register_high_cards(engine::Registry& registry);
void register_said_cards(engine::Registry& registry);
// builtin_registry() plus the test rulesets.
engine::Registry registry_with_test_ruleset();

}  // namespace duelhall::testing
