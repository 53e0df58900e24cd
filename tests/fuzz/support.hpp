// Shared by the fuzz targets: a match of any ruleset built from fuzzer bytes and played at random
// to a fuzzer-chosen depth, so that targets reach real mid-game states instead of only openings.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace duelhall::fuzz {

// The registry every target uses, built once (rulesets are plain data after construction).
inline const engine::Registry& registry() {
  static const engine::Registry r = engine::builtin_registry();
  return r;
}

inline engine::Seed take_seed(FuzzedDataProvider& in) {
  engine::Seed seed{};
  seed[0] = in.ConsumeIntegral<uint8_t>();
  seed[1] = in.ConsumeIntegral<uint8_t>();
  return seed;
}

// A match of a fuzzer-chosen ruleset and seat count with default parameters.
inline std::unique_ptr<engine::State> new_match(FuzzedDataProvider& in) {
  const auto& all = registry().all();
  const auto& info = all[in.ConsumeIntegralInRange<size_t>(0, all.size() - 1)];
  const int seats = in.ConsumeIntegralInRange<int>(info.min_seats, info.max_seats);
  auto created = registry().create(info.name, seats, take_seed(in), {});
  return std::move(created.state);
}

// Plays up to `steps` random legal actions (avoiding resignations) chosen by `pick`.
inline void play_random(engine::State& state, int steps, engine::Rng& pick) {
  const auto* info = registry().find(state.config().ruleset);
  std::vector<engine::Action> legal;
  for (int i = 0; i < steps && !state.terminal(); ++i) {
    const engine::SeatMask pending = state.pending();
    engine::Seat seat = 0;
    while (seat < state.num_seats() && !pending.has(seat)) ++seat;
    if (seat == state.num_seats()) __builtin_trap();  // not terminal, yet nobody to decide
    state.legal_actions(seat, legal);
    std::vector<engine::Action> choices;
    for (const auto& a : legal) {
      bool resign = false;
      for (uint8_t kind : info->resign_kinds) resign = resign || a.kind == kind;
      if (!resign) choices.push_back(a);
    }
    if (choices.empty()) choices = legal;
    if (choices.empty()) return;
    const auto& chosen = choices[pick.below(static_cast<uint32_t>(choices.size()))];
    if (!state.apply(seat, chosen).ok()) __builtin_trap();  // a listed action must apply
  }
}

}  // namespace duelhall::fuzz
