// What the load generator measures, per shard (one per thread) and merged at the end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace duelhall::loadgen {

struct Stats {
  uint64_t actions = 0;              // accepted (answered OK) while recording
  uint64_t refused = 0;              // actions answered with a refusal
  std::vector<uint32_t> latency_us;  // an action sent -> an opponent's update for it received
  uint64_t diffs = 0;
  uint64_t diff_bytes = 0;    // MatchUpdate.patch
  uint64_t update_bytes = 0;  // the whole ServerMessage frame carrying the update
  uint64_t event_bytes = 0;   // of which the event texts (with their tags)
  uint64_t legal_bytes = 0;   // of which the legal actions' codes (with their tags)
  uint64_t label_bytes = 0;   // of which the labels of legal actions (with their tags)
  uint64_t views = 0;
  uint64_t view_bytes = 0;  // the full view after each update, rebuilt from the patches
  uint64_t snapshots = 0;
  uint64_t snapshot_view_bytes = 0;
  uint64_t matches_finished = 0;
  uint64_t bad_patches = 0;  // patches that did not apply or skipped a sequence number
  uint64_t connection_errors = 0;
  uint64_t bot_moves = 0;  // bot matches: updates for the bot's moves, not the seat's own

  void merge(const Stats& other);
};

// The p-th percentile (0..100) of `samples` (sorted in place), in microseconds; 0 when empty.
double percentile(std::vector<uint32_t>& samples, double p);
// The resident set size of process `pid` in KiB from /proc/<pid>/status; -1 when unreadable.
long rss_kib(long pid);
// User plus system CPU time of process `pid` (0: this process) in seconds; -1 when unreadable.
double cpu_seconds(long pid);

}  // namespace duelhall::loadgen
