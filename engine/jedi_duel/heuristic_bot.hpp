// A simple Jedi Duel bot: scores each legal action one step ahead and takes the best, ties to
// the lowest code. It reads only what its seat's view shows: its own hand, the public table
// (Stances, fatigue, counts, discard top), the attack it is answering and a hand it is sensing.
#pragma once

#include "core/bot.hpp"

namespace duelhall::engine::jedi_duel {

class HeuristicBot final : public Bot {
 public:
  Action choose(const State& state, Seat seat, Rng& rng) override;
};

}  // namespace duelhall::engine::jedi_duel
