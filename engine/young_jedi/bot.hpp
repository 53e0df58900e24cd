// The "heuristic" bot level: plays from what its seat's view shows (its own hand and dueling
// hand, the cards in play, deck sizes), never conceding. It deploys dueling characters and the
// lightsabers they can use first, duels when its dueling power is at least the defender's,
// defends with its strongest dueling character, blocks whenever it can and uses every dueling
// text. Ties are broken at random.
#pragma once

#include "core/bot.hpp"

namespace duelhall::engine::young_jedi {

class HeuristicBot final : public Bot {
 public:
  Action choose(const State& state, Seat seat, Rng& rng) override;
};

}  // namespace duelhall::engine::young_jedi
