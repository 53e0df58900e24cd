// The shared random-play harness and leak test for Force Battles, at every competency level.
#include <catch2/catch.hpp>

#include "core/registry.hpp"
#include "harness/random_play.hpp"

using namespace duelhall;

TEST_CASE("Force Battles random play holds the harness invariants at every competency level") {
  const auto registry = engine::builtin_registry();
  long long games = 0;
  for (const char* level : {"learner", "initiate", "templar", "diamedes"}) {
    testing::HarnessOptions options;
    options.games = 500;
    options.first_seed = 1000;
    options.params = {{"competency", level}};
    const auto report = testing::run_random_play(registry, "force_battles", options);
    CHECK(report.games == testing::scaled_games(500));
    CHECK(report.hidden_redraws_that_changed_something > 0);
    games += report.games;
  }
  CHECK(games == 4 * testing::scaled_games(500));
}

TEST_CASE("Force Battles random play ends at a host-set round limit") {
  const auto registry = engine::builtin_registry();
  testing::HarnessOptions options;
  options.games = 200;
  options.params = {{"competency", "diamedes"}, {"round_limit", "3"}};
  const auto report = testing::run_random_play(registry, "force_battles", options);
  CHECK(report.games == testing::scaled_games(200));
}
