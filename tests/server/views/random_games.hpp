// Random complete games of a registered ruleset, calling back with every viewer's view after
// every step: the shared driver of the view conformance and diff replay tests.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace duelhall::testing {

struct ViewStep {
  const engine::State& state;
  size_t step = 0;  // 0: the initial state
};

// Plays `games` games (seat counts cycling through the ruleset's range) with uniformly random
// legal actions of a random pending seat; `on_step` sees each state, first and after each action.
void play_random_games(const engine::Registry& registry, const engine::RulesetInfo& info, int games,
                       uint64_t first_seed, const std::function<void(const ViewStep&)>& on_step);

// Every viewer of a state: each seat, the spectator and the omniscient viewer.
std::vector<engine::Viewer> all_viewers(const engine::State& state);

}  // namespace duelhall::testing
