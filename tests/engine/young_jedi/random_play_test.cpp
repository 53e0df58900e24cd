#include <catch2/catch.hpp>
#include <chrono>

#include "core/registry.hpp"
#include "harness/random_play.hpp"
#include "young_jedi/deck.hpp"
#include "young_jedi/state.hpp"

using namespace duelhall;

TEST_CASE("young_jedi random play with the ready decks says every event as a phrase") {
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
  CHECK(report.games == testing::scaled_games(2000));
  // The harness renders each phrase with the book and compares it with the event's text.
  CHECK(report.events > 0);
  CHECK(report.events_said_as_phrases == report.events);
  WARN("young_jedi: " << report.games << " games, " << report.actions << " actions, "
                      << report.leak_checks << " leak checks in " << seconds << " s");
}

namespace {

// The ready decks with characters whose deploy texts search the draw deck (Y29) and the
// characters they find: Valorum and senators for Light, Nute Gunray, Rune Haako and Neimoidians
// for Dark.
std::vector<std::string> searching_decks() {
  std::string light, dark;
  for (const auto& ready : engine::young_jedi::ready_decks()) {
    if (ready.side == engine::young_jedi::Side::kLight && light.empty()) light = ready.list;
    if (ready.side == engine::young_jedi::Side::kDark && dark.empty()) dark = ready.list;
  }
  light += "3 Valorum, Leader of the Senate\n3 Alderaan Diplomat, Senator\n";
  dark += "3 7_52\n3 7_53\n2 Tey How, Neimoidian Command Officer\n";
  return {light, dark};
}

}  // namespace

TEST_CASE("young_jedi random play with decks whose deploy texts search the draw deck") {
  const std::vector<std::string> decks = searching_decks();
  for (int seat = 0; seat < 2; ++seat) {
    auto checked = engine::young_jedi::parse_deck(decks[seat]);
    INFO(checked.error);
    REQUIRE(checked.error.empty());
  }
  // The harness's checks, the leak test among them, on every step of games that search.
  testing::HarnessOptions options;
  options.games = 100;
  options.seat_options = [decks](int, uint64_t) { return decks; };
  auto report = testing::run_random_play(engine::builtin_registry(), "young_jedi", options);
  CHECK(report.games == testing::scaled_games(100));
  CHECK(report.events > 0);
  CHECK(report.events_said_as_phrases == report.events);  // the search's events among them
  // Those games do reach the search: count the searches of random games with these decks.
  engine::Registry registry = engine::builtin_registry();
  int searches = 0;
  for (uint64_t game = 1; game <= 50; ++game) {
    auto created = registry.create("young_jedi", 2, engine::seed_from_number(game), {}, decks);
    REQUIRE(created.state);
    engine::State& s = *created.state;
    engine::Rng rng(engine::seed_from_number(game + 1000));
    for (int step = 0; step < 5000 && !s.terminal(); ++step) {
      const engine::Seat seat = s.pending().first();
      std::vector<engine::Action> legal = s.legal_actions(seat);
      const auto& table = static_cast<engine::young_jedi::YoungJediState&>(s).table();
      searches += table.phase == engine::young_jedi::Phase::kSearchDrawDeck;
      // Conceding only ends the game early; leave it out.
      std::erase_if(legal, [](engine::Action a) {
        return a.kind == static_cast<uint8_t>(engine::young_jedi::ActionKind::kConcede);
      });
      REQUIRE(s.apply(seat, legal[rng.below(static_cast<uint32_t>(legal.size()))]).ok());
    }
  }
  CHECK(searches > 10);
}
