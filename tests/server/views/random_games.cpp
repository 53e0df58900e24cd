#include "views/random_games.hpp"

#include <catch2/catch.hpp>

#include "core/bot.hpp"

namespace duelhall::testing {

std::vector<engine::Viewer> all_viewers(const engine::State& state) {
  std::vector<engine::Viewer> viewers;
  for (int s = 0; s < state.num_seats(); ++s) viewers.push_back(engine::Viewer::of_seat(s));
  viewers.push_back(engine::Viewer::spectator());
  viewers.push_back(engine::Viewer::omniscient());
  return viewers;
}

void play_random_games(const engine::Registry& registry, const engine::RulesetInfo& info, int games,
                       uint64_t first_seed, const std::function<void(const ViewStep&)>& on_step) {
  const int seat_choices = info.max_seats - info.min_seats + 1;
  for (int game = 0; game < games; ++game) {
    const uint64_t seed = first_seed + static_cast<uint64_t>(game);
    const int seats = info.min_seats + game % seat_choices;
    auto created = registry.create(info.name, seats, engine::seed_from_number(seed), {});
    INFO(info.name << " seats=" << seats << " seed=" << seed);
    REQUIRE(created.state != nullptr);
    engine::State& state = *created.state;
    engine::Rng rng(engine::seed_from_number(seed * 7919 + 1));
    size_t step = 0;
    on_step({state, step});
    while (!state.terminal()) {
      REQUIRE(step < static_cast<size_t>(info.max_game_length));
      std::vector<engine::Seat> pending;
      for (int s = 0; s < state.num_seats(); ++s) {
        if (state.pending().has(s)) pending.push_back(s);
      }
      REQUIRE_FALSE(pending.empty());
      const engine::Seat seat = pending[rng.below(static_cast<uint32_t>(pending.size()))];
      auto legal = state.legal_actions(seat);
      engine::drop_avoided(legal, info.resign_kinds);  // random games are real games
      REQUIRE(state.apply(seat, legal[rng.below(static_cast<uint32_t>(legal.size()))]).ok());
      on_step({state, ++step});
    }
  }
}

}  // namespace duelhall::testing
