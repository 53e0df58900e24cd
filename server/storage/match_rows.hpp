// What the SQLite and the PostgreSQL match stores read the same way: the columns of a match's
// summary, and the summary from one row of them.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "storage/match_store.hpp"

namespace duelhall::storage {

// The SELECT list of a summary over `matches m`, in summary_from_row's order; both databases
// accept it (a backend may append columns of its own after these).
inline constexpr std::string_view kSummaryColumns =
    "m.id, m.ruleset, m.seat_count, m.status, m.engine_version, m.commitment, m.seed, "
    "m.winners, m.scores, m.result, m.created_at, m.ended_at, "
    "(SELECT count(*) FROM actions a WHERE a.match_id = m.id), m.params";

inline engine::Seed seed_from_bytes(const std::string& bytes) {
  engine::Seed seed{};
  if (bytes.size() != seed.size()) throw StoreError("a stored seed is not 32 bytes");
  std::copy(bytes.begin(), bytes.end(), seed.begin());
  return seed;
}

// A summary (without its names) from the current row of kSummaryColumns. `Row` reads column i
// as text(i), integer(i) and bytes(i): each backend adapts its own row type.
template <class Row>
MatchSummary summary_from_row(const Row& row) {
  MatchSummary s;
  s.id = row.integer(0);
  s.ruleset = row.text(1);
  s.seats = static_cast<int>(row.integer(2));
  s.status = parse_status(row.text(3));
  s.engine_version = row.text(4);
  s.commitment = row.text(5);
  if (s.status != MatchStatus::kLive) {
    s.revealed_seed = seed_from_bytes(row.bytes(6));
    s.outcome = fairness::RecordedOutcome{static_cast<uint32_t>(row.integer(7)),
                                          parse_scores(row.text(8)), row.text(9)};
    s.ended_ms = row.integer(11);
  }
  s.created_ms = row.integer(10);
  s.steps = row.integer(12);
  return s;
}

}  // namespace duelhall::storage
