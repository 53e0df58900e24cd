#include <catch2/catch.hpp>

#include "core/registry.hpp"
#include "harness/random_play.hpp"

using namespace duelhall;

TEST_CASE("Jedi Duel survives random legal play across 2 to 6 seats") {
  const engine::Registry registry = engine::builtin_registry();
  testing::HarnessOptions options;
  options.games = 2000;
  options.check_every = 2;
  const testing::HarnessReport report = testing::run_random_play(registry, "jedi_duel", options);
  CHECK(report.games == 2000);
  for (int seats = 2; seats <= 6; ++seats) CHECK(report.games_by_seats.at(seats) == 400);
  CHECK(report.leak_checks > 0);
  CHECK(report.label_checks > 0);  // Jedi Duel declares labels_by_code
  CHECK(report.hidden_redraws_that_changed_something > 0);
}
