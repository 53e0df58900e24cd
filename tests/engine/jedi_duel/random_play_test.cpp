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
  CHECK(report.games == testing::scaled_games(2000));
  // Game g is played by 2 + g % 5 seats.
  for (int seats = 2; seats <= 6; ++seats) {
    CHECK(report.games_by_seats.at(seats) == (report.games - (seats - 2) + 4) / 5);
  }
  CHECK(report.leak_checks > 0);
  CHECK(report.label_checks > 0);  // Jedi Duel declares labels_by_code
  CHECK(report.hidden_redraws_that_changed_something > 0);
  // Every event is said as a phrase of the book (protocol 5 sends no Jedi Duel event as text),
  // and the harness held each one's rendering to its text.
  CHECK(report.events > report.actions);
  CHECK(report.events_said_as_phrases == report.events);
}
