// The expert bot of every ruleset: offered by the registry with the budget its builder sets,
// legal in every position, within its budget, and stronger than random play.
#include <catch2/catch.hpp>

#include <chrono>

#include "core/expert_bot.hpp"
#include "core/registry.hpp"

using namespace duelhall::engine;

namespace {

const char* const kRulesets[] = {"jedi_duel", "young_jedi", "force_battles"};

// Plays one game of `bots` (one per seat); returns the outcome. Every action any bot chooses
// must be one of its seat's legal actions.
Outcome play(const Registry& registry, const std::string& ruleset, std::vector<Bot*> bots,
             uint64_t seed) {
  auto created =
      registry.create(ruleset, static_cast<int>(bots.size()), seed_from_number(seed), {});
  REQUIRE(created.state);
  State& state = *created.state;
  Rng rng(seed_from_number(seed ^ 0xb0b));
  int steps = 0;
  while (!state.terminal()) {
    const Seat seat = state.pending().first();
    const Action action = bots[static_cast<size_t>(seat)]->choose(state, seat, rng);
    const std::vector<Action> legal = state.legal_actions(seat);
    REQUIRE(std::binary_search(legal.begin(), legal.end(), action));
    REQUIRE(state.apply(seat, action).ok());
    REQUIRE(++steps <= registry.find(ruleset)->max_game_length);
  }
  return state.outcome();
}

const std::vector<uint8_t>& random_resigns(const Registry& registry, const std::string& ruleset) {
  return registry.find(ruleset)->resign_kinds;
}

// A position a few random steps in where `seat` has a choice.
std::unique_ptr<State> position_with_choice(const Registry& registry, const std::string& ruleset,
                                            Seat& seat) {
  auto created = registry.create(ruleset, 2, seed_from_number(5), {});
  REQUIRE(created.state);
  RandomBot random(registry.find(ruleset)->resign_kinds);
  Rng rng(seed_from_number(6));
  for (int step = 0;; ++step) {
    REQUIRE_FALSE(created.state->terminal());
    seat = created.state->pending().first();
    std::vector<Action> legal = created.state->legal_actions(seat);
    drop_avoided(legal, random_resigns(registry, ruleset));  // the expert never searches those
    if (step >= 10 && legal.size() >= 2) return std::move(created.state);
    REQUIRE(created.state->apply(seat, random.choose(*created.state, seat, rng)).ok());
  }
}

}  // namespace

TEST_CASE("Every ruleset offers the expert level and builds it with the given budget") {
  const Registry registry = builtin_registry();
  for (const char* ruleset : kRulesets) {
    INFO(ruleset);
    const std::vector<std::string>& levels = registry.find(ruleset)->bot_levels;
    CHECK(std::find(levels.begin(), levels.end(), "expert") != levels.end());
    auto bot =
        registry.make_bot(ruleset, "expert", SearchBudget{.iterations = 77, .milliseconds = 9});
    auto* expert = dynamic_cast<ExpertBot*>(bot.get());
    REQUIRE(expert);
    CHECK(expert->settings().budget == SearchBudget{.iterations = 77, .milliseconds = 9});
    CHECK(expert->settings().rollout_cap == registry.find(ruleset)->max_game_length);
  }
  ExpertSettings no_limit;
  no_limit.budget = {.iterations = 0, .milliseconds = 0};
  CHECK_THROWS_AS(ExpertBot(no_limit, std::make_unique<RandomBot>()), std::invalid_argument);
}

TEST_CASE("The expert stops at its iteration budget") {
  const Registry registry = builtin_registry();
  for (const char* ruleset : kRulesets) {
    INFO(ruleset);
    Seat seat = 0;
    auto state = position_with_choice(registry, ruleset, seat);
    auto bot = registry.make_bot(ruleset, "expert", {.iterations = 37, .milliseconds = 0});
    Rng rng(seed_from_number(1));
    bot->choose(*state, seat, rng);
    const SearchReport& report = dynamic_cast<ExpertBot&>(*bot).last_search();
    CHECK(report.iterations == 37);
    CHECK(report.nodes <= 38);  // at most one node added per iteration, plus the root
  }
}

TEST_CASE("The expert stops at its time budget") {
  const Registry registry = builtin_registry();
  for (const char* ruleset : kRulesets) {
    INFO(ruleset);
    Seat seat = 0;
    auto state = position_with_choice(registry, ruleset, seat);
    auto bot = registry.make_bot(ruleset, "expert", {.iterations = 0, .milliseconds = 15});
    Rng rng(seed_from_number(2));
    const auto start = std::chrono::steady_clock::now();
    bot->choose(*state, seat, rng);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const SearchReport& report = dynamic_cast<ExpertBot&>(*bot).last_search();
    CHECK(report.iterations > 1);
    CHECK(ms >= 15);
    // Without the clock the search would never end (no iteration limit). One iteration takes well
    // under a millisecond; the slack is for a loaded, shared machine that pauses the thread.
    CHECK(ms < 15 + 500);
    CHECK(report.milliseconds >= 15);
  }
}

TEST_CASE("The expert only ever returns legal actions, with two and with four players") {
  const Registry registry = builtin_registry();
  const SearchBudget budget{.iterations = 24, .milliseconds = 0};
  for (const char* ruleset : kRulesets) {
    INFO(ruleset);
    auto expert = registry.make_bot(ruleset, "expert", budget);
    auto heuristic = registry.make_bot(ruleset, "heuristic");
    for (uint64_t g = 0; g < 3; ++g) {
      play(registry, ruleset, {expert.get(), heuristic.get()}, 100 + g);
      play(registry, ruleset, {heuristic.get(), expert.get()}, 200 + g);
    }
  }
  auto expert = registry.make_bot("jedi_duel", "expert", budget);
  auto random = registry.make_bot("jedi_duel", "random");
  for (uint64_t g = 0; g < 3; ++g) {
    play(registry, "jedi_duel", {random.get(), expert.get(), random.get(), expert.get()}, 300 + g);
  }
}

TEST_CASE("The expert beats the random bot in a small arena of every ruleset") {
  const Registry registry = builtin_registry();
  for (const char* ruleset : kRulesets) {
    INFO(ruleset);
    auto expert = registry.make_bot(ruleset, "expert", {.iterations = 24, .milliseconds = 0});
    auto random = registry.make_bot(ruleset, "random");
    int expert_wins = 0;
    int random_wins = 0;
    for (uint64_t g = 0; g < 40; ++g) {
      const Seat expert_seat = static_cast<Seat>(g % 2);  // seats alternate
      std::vector<Bot*> bots = {random.get(), random.get()};
      bots[static_cast<size_t>(expert_seat)] = expert.get();
      const Outcome outcome = play(registry, ruleset, bots, 1000 + g);
      if (outcome.draw()) continue;
      (outcome.winners.first() == expert_seat ? expert_wins : random_wins) += 1;
    }
    INFO("expert " << expert_wins << ", random " << random_wins);
    CHECK(expert_wins >= 32);
  }
}
