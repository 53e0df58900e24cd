// Start-up work on the match store: rebuilding the unfinished matches, and retention.
#pragma once

#include <cstdint>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "lobby/hub.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

struct RecoveryReport {
  int resumed = 0;
  int finished = 0;   // their last action was stored but not their end
  int abandoned = 0;  // could not be rebuilt: their log or ruleset no longer replays
};

int64_t unix_now_ms();

// Replays every unfinished match of `store` into `hub`, which must not be serving yet. A match
// that cannot be rebuilt is recorded as abandoned with the reason, never dropped silently.
RecoveryReport recover_matches(storage::MatchStore& store, const engine::Registry& registry,
                               Hub& hub);

// Rebuilds one stored, unfinished match into `hub` (or records it finished or abandoned, with
// the reason), counting it in `report`: the start-up's recovery and a cluster's adoption.
void recover_stored(storage::MatchStore& store, const engine::Registry& registry, Hub& hub,
                    storage::StoredMatch& stored, RecoveryReport& report);

// The retention settings as the store's policy; nullopt fields are unlimited.
storage::RetentionPolicy retention_of(const Config& config);

}  // namespace duelhall::server
