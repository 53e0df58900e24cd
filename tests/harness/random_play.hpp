// The random-play harness every ruleset runs (after OpenSpiel's RandomSimTest): many games of
// random legal play from fixed seeds, checking at each step that
//  - every seat's legal list is sorted and duplicate-free, non-empty exactly for pending seats;
//  - random illegal or malformed actions and actions of non-pending seats are refused and leave
//    the serialized state byte-identical;
//  - clone and serialize/deserialize round-trip to equal states;
//  - the conserved inventory (cards, counters) never changes;
//  - the leak test: for each seat and the spectator, redrawing what that viewer cannot see
//    leaves its view byte-identical;
//  - a ruleset that declares `labels_by_code` gives every code the same label, whatever the
//    position, the seat and the game;
//  - a ruleset with a phrase book: every event said as a phrase renders, with the book, exactly
//    its text (and its redacted phrase its redacted text);
// and at the end of each game that it ended within the ruleset's bound and that replaying its
// seed and steps rebuilds the same final state.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace duelhall::testing {

struct HarnessOptions {
  int games = 2000;
  uint64_t first_seed = 1;
  std::map<std::string, std::string> params;
  // Per-seat setup, chosen per game (a deck list for each seat); may return empty.
  std::function<std::vector<std::string>(int seats, uint64_t game)> seat_options;
  // Expensive checks (clone, serialize, leak) run on every n-th step.
  int check_every = 1;
  // Rulesets with hidden information: require the leak test to have redrawn something.
  bool expects_hidden_information = true;
  // Random play avoids the ruleset's resign kinds (RulesetInfo::resign_kinds) except in every
  // n-th game, so that most games are played out and resigning is still exercised.
  int resign_every = 50;
};

struct HarnessReport {
  int games = 0;
  long long actions = 0;
  long long leak_checks = 0;
  long long hidden_redraws_that_changed_something = 0;
  long long label_checks = 0;  // labels compared with the code's first label (labels_by_code)
  long long events = 0;
  long long events_said_as_phrases = 0;  // with a phrase, checked against the book
  std::map<int, int> games_by_seats;
};

// How many of `games` a run plays: all of them, or the share DUELHALL_RANDOM_PLAY_SHARE names
// (a number in (0, 1]; at least one game). The sanitizer builds play a quarter: every check still
// runs on every step, over fewer seeds, where each game costs ten times as much.
int scaled_games(int games);

// Runs scaled_games(options.games) games; failures are reported through Catch2. Returns what it
// did, for assertions.
HarnessReport run_random_play(const engine::Registry& registry, const std::string& ruleset,
                              const HarnessOptions& options);

}  // namespace duelhall::testing
