// "Toy race": a tiny test-only ruleset with hidden cards, a shuffle and die rolls, so that the
// storage and verification tests exercise real chance logs without depending on the project's
// rulesets (written elsewhere). Not a game anyone plays.
//
// Rules: two seats; a deck of cards 1..10 is shuffled and each seat draws two into its hidden
// hand. Seats take turns. On its turn a seat either rolls a D6 (kind 1) and adds it to its score,
// or plays hand card i (kind 2, arg 0 = i), adding the card's value and drawing a replacement if
// the deck has one. The first to reach the target (parameter "target", 10..60, default 25) wins;
// after 40 steps the higher score wins, equal scores draw.
#pragma once

#include "core/registry.hpp"

namespace duelhall::testing {

inline constexpr const char* kToyRuleset = "toy_race";
// Its die roll (kind 1).
inline const engine::Action kToyRoll = engine::Action::make(1);

void register_toy_race(engine::Registry& registry);
engine::Registry toy_registry();

}  // namespace duelhall::testing
