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
#pragma once

#include "core/registry.hpp"

namespace duelhall::testing {

inline constexpr const char* kTestRuleset = "high_cards";
void register_high_cards(engine::Registry& registry);
// builtin_registry() plus the test ruleset.
engine::Registry registry_with_test_ruleset();

}  // namespace duelhall::testing
