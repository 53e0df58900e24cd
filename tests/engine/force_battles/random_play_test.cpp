// The shared random-play harness and leak test for Force Battles, at every competency level.
#include <catch2/catch.hpp>

#include "core/registry.hpp"
#include "harness/random_play.hpp"

using namespace duelhall;

TEST_CASE(
    "Force Battles random play holds the harness invariants and says every event as a phrase at "
    "every competency level") {
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
    // The harness renders each phrase with the book and compares it with the event's text.
    CHECK(report.events > 0);
    CHECK(report.events_said_as_phrases == report.events);
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
  CHECK(report.events > 0);
  CHECK(report.events_said_as_phrases == report.events);  // the round-limit ends among them
}
