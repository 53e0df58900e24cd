#include <catch2/catch.hpp>
#include <chrono>

#include "harness/random_play.hpp"
#include "young_jedi/deck.hpp"

using namespace duelhall;

TEST_CASE("young_jedi random play with the ready decks") {
  testing::HarnessOptions options;
  options.games = 2000;
  // Every pairing of the ready decks, seat 0 Light and seat 1 Dark.
  options.seat_options = [](int, uint64_t game) {
    std::vector<std::string> light, dark;
    for (const auto& ready : engine::young_jedi::ready_decks()) {
      (ready.side == engine::young_jedi::Side::kLight ? light : dark).push_back(ready.list);
    }
    return std::vector<std::string>{light[game % light.size()], dark[(game / 2) % dark.size()]};
  };
  // Games are played out (no conceding but in every 50th), so full checks run on every 9th step.
  options.check_every = 9;
  auto start = std::chrono::steady_clock::now();
  auto report = testing::run_random_play(engine::builtin_registry(), "young_jedi", options);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(report.games == 2000);
  WARN("young_jedi: " << report.games << " games, " << report.actions << " actions, "
                      << report.leak_checks << " leak checks in " << seconds << " s");
}
