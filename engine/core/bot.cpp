#include "core/bot.hpp"

#include <algorithm>
#include <stdexcept>

namespace duelhall::engine {

Action RandomBot::choose(const State& state, Seat seat, Rng& rng) {
  std::vector<Action> legal;
  state.legal_actions(seat, legal);
  if (legal.empty()) throw std::logic_error("bot asked to move with no legal action");
  drop_avoided(legal, avoid_);
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

void drop_avoided(std::vector<Action>& legal, const std::vector<uint8_t>& avoid) {
  if (avoid.empty()) return;
  auto avoided = [&](Action a) {
    return std::find(avoid.begin(), avoid.end(), a.kind) != avoid.end();
  };
  if (std::all_of(legal.begin(), legal.end(), avoided)) return;
  legal.erase(std::remove_if(legal.begin(), legal.end(), avoided), legal.end());
}

}  // namespace duelhall::engine
