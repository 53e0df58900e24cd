// TournamentStore: where the tournament room keeps each tournament (docs/tournaments.md), from its
// creation to its final standings, kept for good. One row per tournament: the columns a listing
// reads, and the room's whole state as its own versioned text, written after every change so a
// restart resumes every tournament where it stood. A SQLite and a PostgreSQL backend, in the
// accounts' database (the entrants are accounts).
//
// Contract for every backend: as AccountStore's (any thread, each write one transaction,
// failures throw StoreError). A backend stores what it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace duelhall::storage {

struct TournamentRecord {
  int64_t id = 0;
  std::string name;
  std::string ruleset;
  int32_t status = 0;  // TournamentStatus (tournaments.proto): 0 and 1 are open, 2 and 3 over
  int64_t start_ms = 0;
  int64_t updated_ms = 0;
  std::string state;  // the room's encoding (tournament_room/tournament_record.hpp)
  bool operator==(const TournamentRecord&) const = default;
};

// The columns every backend reads a record from, in TournamentRecord's order.
inline constexpr const char* kTournamentColumns =
    "SELECT id, name, ruleset, status, start_ms, updated_ms, state FROM tournaments ";

template <class Row>
TournamentRecord tournament_from_row(const Row& row) {
  TournamentRecord t;
  t.id = row.integer(0);
  t.name = row.text(1);
  t.ruleset = row.text(2);
  t.status = static_cast<int32_t>(row.integer(3));
  t.start_ms = row.integer(4);
  t.updated_ms = row.integer(5);
  t.state = row.text(6);
  return t;
}

class TournamentStore {
 public:
  virtual ~TournamentStore() = default;
  // Stores a new tournament (its id is ignored) and returns its id.
  virtual int64_t add_tournament(const TournamentRecord& record) = 0;
  // Replaces status, updated_ms and state of tournament `record.id`; false: no such tournament.
  virtual bool save_tournament(const TournamentRecord& record) = 0;
  virtual std::optional<TournamentRecord> find_tournament(int64_t id) = 0;
  // Those registering or running (status 0 or 1), oldest first: what a restart resumes.
  virtual std::vector<TournamentRecord> open_tournaments() = 0;
  // Those over (finished or cancelled), the last changed first, at most `limit`.
  virtual std::vector<TournamentRecord> past_tournaments(int64_t limit) = 0;
};

}  // namespace duelhall::storage
