// Start-up work on the match store: rebuilding the unfinished matches, and retention.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <optional>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "lobby/hub.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

struct RecoveryReport {
  int resumed = 0;
  int finished = 0;   // their last action was stored but not their end: back, finished
  int abandoned = 0;  // could not be rebuilt: their log or ruleset no longer replays
  int left = 0;       // cluster mode: another node's, left to it (or to its adopter)
  int ended = 0;      // ended less than the listing time ago: back to be shown until it ends
};

// Cluster mode: whether this node takes an unfinished match of the shared store, as the fencing
// epoch it now holds the match's lease and claim at, or leaves it (nullopt) to the node that
// owns it. Null: every match is this node's (one server, its own store).
using RecoveryFilter = std::function<std::optional<int64_t>(storage::MatchId)>;

int64_t unix_now_ms();

// Replays every unfinished match of `store` into `hub`, which must not be serving yet. A match
// that cannot be rebuilt is recorded as abandoned with the reason, never dropped silently. Outside
// a cluster, the matches that ended less than the listing time ago come back ended, to be shown.
RecoveryReport recover_matches(storage::MatchStore& store, const engine::Registry& registry,
                               Hub& hub, const RecoveryFilter& take = {});

// Rebuilds one stored, unfinished match into `hub` (or records it finished or abandoned, with
// the reason), counting it in `report`: the start-up's recovery and a cluster's adoption.
// `epoch`: the fencing epoch the node holds the match at (0 outside a cluster).
void recover_stored(storage::MatchStore& store, const engine::Registry& registry, Hub& hub,
                    storage::StoredMatch& stored, RecoveryReport& report, int64_t epoch = 0);

// Forgets the token hashes of the ended matches no longer listed: at once, then every listing
// period (at least every 10 s), on `worker` since the store's calls block. Runs until `io` stops.
void forget_unlisted_tokens(boost::asio::io_context& io, boost::asio::any_io_executor worker,
                            storage::MatchStore& store, uint32_t listed_seconds);

// The retention settings as the store's policy; nullopt fields are unlimited.
storage::RetentionPolicy retention_of(const Config& config);

}  // namespace duelhall::server
