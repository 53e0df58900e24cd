// The seam for durable storage. A match calls its log when it starts, for each accepted action
// and when it ends. A match sends nothing that depends on an action (its diffs, its reply) before
// the log reports the action durable, so nothing a client saw can be lost; the SQLite log
// (durable_log.hpp) reports from its writer thread once the action's transaction is synced, the
// in-memory log below at once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/state.hpp"

namespace duelhall::server {

// What a match records when it starts.
struct MatchStart {
  engine::MatchConfig config;       // with the seed: never sent to anyone while live
  std::vector<std::string> names;   // display names by seat ("bot" for a bot)
  std::vector<std::string> tokens;  // reconnect tokens by seat, empty for a bot
  std::string server_record;        // the server's hosting settings (HostedMatch bytes)
};

// How a match ended: the engine's outcome, a forfeit, or an abort (an engine or log fault).
struct MatchEnd {
  bool aborted = false;
  engine::SeatMask winners;
  std::vector<int32_t> scores;
  std::string reason;
  int64_t steps = -1;  // the steps the match ended after (the store checks it); -1: unchecked
};

// How a write ended: stored (an empty error), or not, with the reason. `retryable`: the store
// could not be reached or could not write (a lost connection, a full disk, an I/O error), so the
// same write may succeed once it is back; otherwise the write itself was refused.
struct LogOutcome {
  LogOutcome() = default;
  LogOutcome(std::string reason, bool retry = false)  // NOLINT: a reason alone is a refusal
      : error(std::move(reason)), retryable(retry) {}
  std::string error;
  bool retryable = false;
};

// Runs once the write is durable or could not be stored; from any thread, possibly before the
// call that made the write returns.
using Durable = std::function<void(const LogOutcome& outcome)>;

class ActionLog {
 public:
  virtual ~ActionLog() = default;
  virtual void started(uint64_t match_id, const MatchStart& start) = 0;
  // `index` is the step's index in the match's history.
  virtual void appended(uint64_t match_id, uint32_t index, const engine::Step& step,
                        Durable durable) = 0;
  // The end is stored before anyone is told of it: `durable` says when.
  virtual void ended(uint64_t match_id, const MatchEnd& end, Durable durable) = 0;
  // Asks whether the store takes writes again (after a retryable failure): `done` gets a
  // retryable outcome while it does not. In order with the match's writes.
  virtual void probe(Durable done) { done({}); }

  // Cluster mode (docs/cluster.md): this node owns the match at fencing `epoch` under the name
  // `node`, and every write from now on carries that epoch. `claim`: the store records the claim
  // first (in order with the match's writes, or with its creation when it is not stored yet);
  // false when the caller claimed it already (an adoption claims before it loads the log).
  virtual void owned(uint64_t /*match_id*/, int64_t /*epoch*/, const std::string& /*node*/,
                     bool /*claim*/) {}
  // True once the store refused one of the match's writes as fenced: another node owns the match
  // now, and this one must stop serving it (the Durable of that write carries the reason).
  virtual bool fenced() const { return false; }
};

// Creates one log per match; shared by the hub.
class ActionLogFactory {
 public:
  virtual ~ActionLogFactory() = default;
  virtual std::unique_ptr<ActionLog> open(uint64_t match_id) = 0;
};

// Keeps the match's config and steps in memory, for as long as the match lives.
class MemoryActionLog final : public ActionLog {
 public:
  void started(uint64_t, const MatchStart& start) override { config_ = start.config; }
  void appended(uint64_t, uint32_t, const engine::Step& step, Durable durable) override {
    steps_.push_back(step);
    durable({});
  }
  void ended(uint64_t, const MatchEnd& end, Durable durable) override {
    result_ = end.reason;
    durable({});
  }
  const engine::MatchConfig& config() const { return config_; }
  const std::vector<engine::Step>& steps() const { return steps_; }
  const std::string& result() const { return result_; }

 private:
  engine::MatchConfig config_;
  std::vector<engine::Step> steps_;
  std::string result_;
};

class MemoryActionLogFactory final : public ActionLogFactory {
 public:
  std::unique_ptr<ActionLog> open(uint64_t) override { return std::make_unique<MemoryActionLog>(); }
};

}  // namespace duelhall::server
