// A match record: everything needed to rewatch a match and to check that its randomness was
// fair. It is what `export` writes (record_format.hpp) and what `verify` checks (verify.hpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/state.hpp"

namespace duelhall::fairness {

struct RecordedOutcome {
  uint32_t winners = 0;  // SeatMask bits
  std::vector<int32_t> scores;
  std::string reason;
  bool operator==(const RecordedOutcome&) const = default;
};

struct MatchRecord {
  std::string engine_version;
  // The seed inside is meaningful only when `seed_revealed`; otherwise it is zero.
  engine::MatchConfig config;
  bool seed_revealed = false;
  std::vector<std::string> names;          // display names by seat
  std::string commitment;                  // 64 hex digits, published at creation
  std::optional<RecordedOutcome> outcome;  // set when the match reached its end
  std::vector<engine::Step> steps;
  std::vector<engine::ChanceRecord> chance_log;
  bool operator==(const MatchRecord&) const = default;
};

RecordedOutcome record_outcome(const engine::Outcome& outcome);

// Parameter values as they were stored or written, unchecked: the registry checks them against
// the ruleset when the match is rebuilt (engine::replay resolves them again).
engine::Params params_as_written(const std::map<std::string, std::string>& values);

// The record of a match as it stands. The seed is revealed only when `reveal_seed` (by default,
// when the match has ended): a live match's record must not let anyone predict its shuffles.
MatchRecord make_record(const engine::State& state, std::vector<std::string> names,
                        std::string_view engine_version);
MatchRecord make_record(const engine::State& state, std::vector<std::string> names,
                        std::string_view engine_version, bool reveal_seed);

}  // namespace duelhall::fairness
