#include <catch2/catch.hpp>

#include "harness/random_play.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;

TEST_CASE("the test-only toy ruleset passes the shared random-play harness") {
  testing::HarnessOptions options;
  options.games = 200;
  auto report = testing::run_random_play(testing::toy_registry(), testing::kToyRuleset, options);
  CHECK(report.games == testing::scaled_games(200));
  CHECK(report.leak_checks > 0);
}
