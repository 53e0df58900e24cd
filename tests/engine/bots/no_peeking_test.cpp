// The expert bot decides on what its seat sees and nothing else: from positions whose hidden
// part (the other hands, the deck order, a secret setup, the match's future dice) was redrawn
// for the bot's seat, with the same seed for the bot's own search, it must choose the same
// action every time.
#include <catch2/catch.hpp>

#include "core/expert_bot.hpp"
#include "core/registry.hpp"

using namespace duelhall::engine;

namespace {

struct Checked {
  int positions = 0;       // decision points where the bot had a choice
  int hidden_differs = 0;  // of those, variants whose hidden part really differed
};

// One position, `variants` redraws of what `seat` cannot see: the expert must choose alike.
void check_position(const Registry& registry, const State& state, Seat seat, Checked& checked) {
  if (state.legal_actions(seat).size() < 2) return;
  ++checked.positions;
  const SearchBudget budget{.iterations = 48, .milliseconds = 0};  // no clock: deterministic
  auto bot = registry.make_bot(state.config().ruleset, "expert", budget);
  REQUIRE(dynamic_cast<ExpertBot*>(bot.get()));
  const std::string truth = state.view(Viewer::omniscient());
  const std::string seen = state.view(Viewer::of_seat(seat));
  Action first{};
  for (uint64_t v = 0; v < 4; ++v) {
    std::unique_ptr<State> variant = state.clone();
    if (v > 0) {
      Rng redraw(seed_from_number(9000 + v));
      variant->resample_hidden(Viewer::of_seat(seat), redraw);
      variant->reseed_chance(seed_from_number(7000 + v));  // another future for the dice
      REQUIRE(variant->view(Viewer::of_seat(seat)) == seen);
      if (variant->view(Viewer::omniscient()) != truth) ++checked.hidden_differs;
    }
    Rng search(seed_from_number(42));
    const Action chosen = bot->choose(*variant, seat, search);
    if (v == 0) first = chosen;
    INFO(state.config().ruleset << " seat " << seat << " step " << state.history().size()
                                << " variant " << v);
    CHECK(chosen == first);
  }
}

// Random games (random pending seat, random legal move, no resigning), checking the expert at
// every `every`-th step for each pending seat.
Checked play_and_check(const Registry& registry, const std::string& ruleset, int seats,
                       uint64_t seed, int every, int max_positions) {
  Checked checked;
  auto created = registry.create(ruleset, seats, seed_from_number(seed), {});
  REQUIRE(created.state);
  State& state = *created.state;
  RandomBot random(registry.find(ruleset)->resign_kinds);
  Rng rng(seed_from_number(seed + 1));
  for (int step = 0; !state.terminal() && checked.positions < max_positions; ++step) {
    const SeatMask pending = state.pending();
    if (step % every == 0) {
      for (Seat s = 0; s < seats; ++s) {
        if (pending.has(s)) check_position(registry, state, s, checked);
      }
    }
    std::vector<Seat> seats_pending;
    for (Seat s = 0; s < seats; ++s) {
      if (pending.has(s)) seats_pending.push_back(s);
    }
    const Seat mover = seats_pending[rng.below(static_cast<uint32_t>(seats_pending.size()))];
    REQUIRE(state.apply(mover, random.choose(state, mover, rng)).ok());
  }
  return checked;
}

void require_checked(const Checked& checked) {
  CHECK(checked.positions >= 8);
  // The test means something only when the redraws changed what the bot cannot see.
  CHECK(checked.hidden_differs >= checked.positions);
}

}  // namespace

TEST_CASE("Jedi Duel expert decides the same whatever the hidden cards are") {
  const Registry registry = builtin_registry();
  require_checked(play_and_check(registry, "jedi_duel", 2, 11, 5, 12));
  require_checked(play_and_check(registry, "jedi_duel", 4, 12, 7, 10));
}

TEST_CASE("Young Jedi expert decides the same whatever the hidden cards are") {
  const Registry registry = builtin_registry();
  require_checked(play_and_check(registry, "young_jedi", 2, 21, 9, 12));
}

TEST_CASE("Force Battles expert decides the same whatever the other secret setup is") {
  // Setups are the only hidden part of Force Battles (F8): check during both secret setups.
  const Registry registry = builtin_registry();
  require_checked(play_and_check(registry, "force_battles", 2, 31, 3, 12));
}
