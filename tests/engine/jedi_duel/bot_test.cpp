// The heuristic bot: it decides on its seat's view alone, and it plays better than chance.
#include "jedi_duel/heuristic_bot.hpp"
#include "table.hpp"

using namespace jedi_test;

TEST_CASE("The heuristic bot decides only on what its seat's view shows") {
  Registry registry = builtin_registry();
  HeuristicBot bot;
  Rng rng(seed_from_number(3));
  int decisions = 0;
  for (int game = 0; game < 60; ++game) {
    auto state = registry.create("jedi_duel", 2 + game % 5, seed_from_number(500 + game), {}).state;
    while (!state->terminal()) {
      const Seat seat = state->pending().first();
      const Action choice = bot.choose(*state, seat, rng);
      // Redraw all this seat cannot see: the same view must give the same choice.
      auto redrawn = state->clone();
      redrawn->resample_hidden(Viewer::of_seat(seat), rng);
      REQUIRE(redrawn->view(Viewer::of_seat(seat)) == state->view(Viewer::of_seat(seat)));
      CHECK(bot.choose(*redrawn, seat, rng) == choice);
      REQUIRE(state->apply(seat, choice).ok());
      ++decisions;
    }
  }
  CHECK(decisions > 1000);
}

TEST_CASE("The heuristic bot beats the random bot in most two-player games") {
  Registry registry = builtin_registry();
  Rng rng(seed_from_number(4));
  int heuristic_wins = 0;
  int random_wins = 0;
  const int games = 400;
  for (int game = 0; game < games; ++game) {
    const Seat heuristic_seat = game % 2;
    auto state = registry.create("jedi_duel", 2, seed_from_number(9000 + game), {}).state;
    auto heuristic = registry.make_bot("jedi_duel", "heuristic");
    auto random = registry.make_bot("jedi_duel", "random");
    while (!state->terminal()) {
      const Seat seat = state->pending().first();
      Bot& bot = seat == heuristic_seat ? *heuristic : *random;
      REQUIRE(state->apply(seat, bot.choose(*state, seat, rng)).ok());
    }
    const SeatMask winners = state->outcome().winners;
    if (winners == SeatMask::only(heuristic_seat)) ++heuristic_wins;
    if (winners == SeatMask::only(1 - heuristic_seat)) ++random_wins;
  }
  INFO("heuristic " << heuristic_wins << ", random " << random_wins << " of " << games);
  CHECK(heuristic_wins > 2 * random_wins);
}
