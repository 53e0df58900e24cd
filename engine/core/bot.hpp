// Computer players. A bot picks one of the seat's legal actions. Bots are given the whole state
// for convenience but must decide only on what `state.view(Viewer::of_seat(seat))` would show.
#pragma once

#include <memory>

#include "core/state.hpp"

namespace duelhall::engine {

class Bot {
 public:
  virtual ~Bot() = default;
  // Called only when `seat` is pending; returns one of its legal actions.
  virtual Action choose(const State& state, Seat seat, Rng& rng) = 0;
  // Whether choose() searches for as long as a budget allows, rather than answering at once: a
  // server runs such a bot off its I/O threads.
  virtual bool searches() const { return false; }
};

// Uniformly random among the legal actions: for tests, load and the "random" bot level.
// Kinds listed in `avoid` (a ruleset's resign kinds) are chosen only when nothing else is legal.
class RandomBot final : public Bot {
 public:
  explicit RandomBot(std::vector<uint8_t> avoid = {}) : avoid_(std::move(avoid)) {}
  Action choose(const State& state, Seat seat, Rng& rng) override;

 private:
  std::vector<uint8_t> avoid_;
};

// How long a searching bot may think about one move: it stops at whichever limit comes first.
// Zero means no limit of that kind; at least one of the two must be set. A host setting.
struct SearchBudget {
  int iterations = 400;
  int milliseconds = 50;
  bool operator==(const SearchBudget&) const = default;
};

// Removes the actions whose kind is in `avoid`, unless that would leave none.
void drop_avoided(std::vector<Action>& legal, const std::vector<uint8_t>& avoid);

}  // namespace duelhall::engine
