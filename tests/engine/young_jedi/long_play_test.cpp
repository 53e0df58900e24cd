// Random play to the natural end: the shared harness picks uniformly among legal actions, which
// includes conceding on every turn, so its games are short. Here nobody concedes, every game must
// end by deck victory or a tie within the ruleset's bound, and the same invariants are checked
// (round trips, conservation, the leak test) deep into the game.
#include <catch2/catch.hpp>
#include <chrono>
#include <map>

#include "core/registry.hpp"
#include "young_jedi/deck.hpp"
#include "young_jedi/state.hpp"

using namespace duelhall::engine;
using namespace duelhall::engine::young_jedi;

TEST_CASE("young_jedi random play without conceding ends by deck victory within the bound") {
  Registry registry = builtin_registry();
  const RulesetInfo* info = registry.find("young_jedi");
  REQUIRE(info);
  const int games = 300;
  std::map<std::string, int> endings;
  long long actions = 0;
  long long duels = 0;
  long long longest = 0;
  auto start = std::chrono::steady_clock::now();
  for (int game = 0; game < games; ++game) {
    std::vector<std::string> decks{ready_decks()[game % 2].list,
                                   ready_decks()[2 + game / 2 % 2].list};
    auto created = registry.create("young_jedi", 2, seed_from_number(1000 + game), {}, decks);
    REQUIRE(created.state);
    State& state = *created.state;
    Rng rng(seed_from_number(77 + game));
    const auto inventory = state.inventory();
    long long steps = 0;
    while (!state.terminal()) {
      Seat seat = state.pending().first();
      std::vector<Action> legal = state.legal_actions(seat);
      std::erase_if(legal,
                    [](Action a) { return a.kind == static_cast<uint8_t>(ActionKind::kConcede); });
      REQUIRE(!legal.empty());
      Action a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      duels += a.kind == static_cast<uint8_t>(ActionKind::kInitiateDuel);
      REQUIRE(state.apply(seat, a).ok());
      ++steps;
      REQUIRE(steps <= info->max_game_length);
      REQUIRE(state.inventory() == inventory);
      if (steps % 13 == 0) {
        const std::string bytes = state.serialize();
        REQUIRE(registry.deserialize(bytes)->serialize() == bytes);
        for (Viewer viewer : {Viewer::spectator(), Viewer::of_seat(0), Viewer::of_seat(1)}) {
          auto redrawn = state.clone();
          redrawn->resample_hidden(viewer, rng);
          REQUIRE(redrawn->view(viewer) == state.view(viewer));
          REQUIRE(redrawn->inventory() == inventory);
        }
      }
    }
    actions += steps;
    longest = std::max(longest, steps);
    ++endings[state.outcome().reason];
  }
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(endings["deck victory"] > 0);
  CHECK(endings.count("conceded") == 0);
  CHECK(duels > 0);
  std::string summary;
  for (const auto& [reason, n] : endings) summary += reason + ": " + std::to_string(n) + "; ";
  WARN(games << " games, " << actions << " actions (longest " << longest << "), " << duels
             << " duels in " << seconds << " s; " << summary);
}
