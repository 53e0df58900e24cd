#include "core/bot.hpp"

#include <stdexcept>

namespace duelhall::engine {

Action RandomBot::choose(const State& state, Seat seat, Rng& rng) {
  std::vector<Action> legal;
  state.legal_actions(seat, legal);
  if (legal.empty()) throw std::logic_error("bot asked to move with no legal action");
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

}  // namespace duelhall::engine
