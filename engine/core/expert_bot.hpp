// The "expert" bot level, the same for every ruleset: information-set Monte Carlo tree search
// (single observer, as OpenSpiel's ISMCTS) over determinizations of the bot's own view.
//
// Each iteration copies the state, redraws everything the bot's seat cannot see with
// `resample_hidden` and gives the copy a random source of its own (`reseed_chance`), both from
// the bot's search generator: the search never reads the true hidden cards and never draws the
// match's future dice or shuffles. It then walks the tree (core/search_tree.hpp: nodes are what
// the bot sees, so dice and draws are chance nodes), adds one node, plays the rest of the game
// with the ruleset's rollout policy (its heuristic bot, mixed with random moves) and backs the
// result up to every edge it followed, each seat's edges with that seat's reward.
//
// Simultaneous decisions (several seats pending, as both players' secret setups in Force
// Battles) are sequentialized: the bot's own seat moves first when it is pending, because its
// real decision is at the root. Another seat that is pending together with someone else moves
// by the rollout policy, outside the tree, like a chance step: were its choices tree edges
// after the bot's own, the tree would let it answer choices that are secret from it, and the
// bot would plan against an opponent who sees its setup. Its effect on the bot's later nodes is
// only what the bot's view shows, as for any hidden move.
//
// The budget (iterations and milliseconds, whichever ends first) is set by whoever builds the
// bot (Registry::make_bot). No threads, no global state: one bot thinks on its caller's thread.
#pragma once

#include <cstdint>
#include <memory>

#include "core/bot.hpp"
#include "core/search_tree.hpp"

namespace duelhall::engine {

struct ExpertSettings {
  SearchBudget budget;
  double exploration = 0.7;  // UCB1 constant; rewards are in [0, 1]
  // Progressive bias toward the rollout policy's own move at every tree node (see
  // SearchTree::select): a small budget cannot tell many moves apart in a game of dice.
  double policy_bias = 3.0;
  // Chance that a rollout move is uniformly random instead of the rollout policy's.
  double rollout_randomness = 0.1;
  // A rollout longer than this (player steps) counts as a draw; a ruleset's max_game_length.
  int rollout_cap = 10'000;
  std::vector<uint8_t> resign_kinds;  // never searched while another action is legal
};

// What the last search did, for benchmarks and tests.
struct SearchReport {
  uint64_t iterations = 0;
  double milliseconds = 0;
  size_t nodes = 0;
  size_t tree_bytes = 0;
};

class ExpertBot final : public Bot {
 public:
  // `rollout` plays every seat to the end of each simulated game.
  ExpertBot(ExpertSettings settings, std::unique_ptr<Bot> rollout);
  Action choose(const State& state, Seat seat, Rng& rng) override;
  bool searches() const override { return true; }

  const SearchReport& last_search() const { return report_; }
  const ExpertSettings& settings() const { return settings_; }

 private:
  void iterate(const State& state, Seat me, Rng& rng);
  // Plays `state` to its end; returns each seat's reward (win 1, loss 0, shared draw 1/n).
  void rollout(State& state, Rng& rng);
  Action rollout_move(const State& state, Seat seat, Rng& rng);

  ExpertSettings settings_;
  std::unique_ptr<Bot> rollout_;
  SearchTree tree_;
  SearchReport report_;
  struct Visit {
    uint32_t node = 0;
    uint32_t edge = 0;
  };
  std::vector<Visit> path_;
  std::vector<Action> legal_;
  std::vector<double> rewards_;
};

}  // namespace duelhall::engine
