// Force Battles bots: "random" (the core RandomBot) and "heuristic" (bot.cpp).
#pragma once

#include "core/bot.hpp"
#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {

class HeuristicBot final : public Bot {
 public:
  Action choose(const State& state, Seat seat, Rng& rng) override;
};

}  // namespace duelhall::engine::force_battles
