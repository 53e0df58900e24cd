// The bots offered for Force Battles play legal, finite games, and the heuristic one is better
// than chance.
#include <catch2/catch.hpp>

#include "core/registry.hpp"

using namespace duelhall::engine;

namespace {

// Plays one game; returns the winner's seat, -1 for a draw.
int play(const Registry& registry, const std::string& level, std::string_view bot0,
         std::string_view bot1, uint64_t seed) {
  auto created =
      registry.create("force_battles", 2, seed_from_number(seed), {{"competency", level}});
  REQUIRE(created.state);
  State& state = *created.state;
  auto first = registry.make_bot("force_battles", bot0);
  auto second = registry.make_bot("force_battles", bot1);
  Rng rng(seed_from_number(seed + 7));
  int steps = 0;
  while (!state.terminal()) {
    const Seat seat = state.pending().first();
    const Action action = (seat == 0 ? first : second)->choose(state, seat, rng);
    REQUIRE(state.apply(seat, action).ok());
    REQUIRE(++steps <= registry.find("force_battles")->max_game_length);
  }
  const Outcome outcome = state.outcome();
  return outcome.draw() ? -1 : outcome.winners.first();
}

}  // namespace

TEST_CASE("Force Battles offers a random, a heuristic and an expert bot") {
  const Registry registry = builtin_registry();
  const RulesetInfo* info = registry.find("force_battles");
  REQUIRE(info);
  CHECK(info->bot_levels == std::vector<std::string>{"random", "heuristic", "expert"});
}

TEST_CASE("The heuristic bot beats the random bot in most games at every level") {
  const Registry registry = builtin_registry();
  for (const char* level : {"learner", "diamedes"}) {
    int heuristic_wins = 0;
    for (uint64_t g = 0; g < 100; ++g) {
      const bool heuristic_first = g % 2 == 0;
      const int winner = play(registry, level, heuristic_first ? "heuristic" : "random",
                              heuristic_first ? "random" : "heuristic", g);
      if (winner == (heuristic_first ? 0 : 1)) ++heuristic_wins;
    }
    INFO(level);
    CHECK(heuristic_wins >= 85);  // measured 97-99% over 1,000 games
  }
}

TEST_CASE("Two heuristic bots finish their games") {
  const Registry registry = builtin_registry();
  for (uint64_t g = 0; g < 50; ++g) play(registry, "diamedes", "heuristic", "heuristic", g);
}
