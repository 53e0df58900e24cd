// The errors every store backend (SQLite, PostgreSQL) throws: a failure of the backend itself or
// a write the store refuses, always with a reason a log line can carry.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace duelhall::storage {

struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The store cannot be reached or cannot write now (a lost connection to PostgreSQL, a full disk,
// an I/O error): nothing of the call was stored, and the same call may succeed once the store is
// back. Any other StoreError is a refusal that retrying will not change.
struct StoreUnavailableError : StoreError {
  using StoreError::StoreError;
};

// A write to a match by an owner whose fencing epoch is lower than the highest one recorded for
// the match (claim_match): another node has taken the match over, and this one must stop
// writing to it. Nothing of the refused write is stored.
struct StaleEpochError : StoreError {
  StaleEpochError(int64_t match_id, int64_t refused, int64_t held)
      : StoreError("stale epoch " + std::to_string(refused) + " for match " +
                   std::to_string(match_id) + ": it is owned at epoch " + std::to_string(held)),
        match(match_id),
        epoch(refused),
        current(held) {}
  int64_t match;
  int64_t epoch;
  int64_t current;
};

}  // namespace duelhall::storage
