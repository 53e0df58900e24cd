// The seam for durable storage. A match calls its log when it starts, for each accepted action
// (before any viewer is sent the action's diffs, so nothing a client saw can be lost), and when
// it ends. The SQLite log (crash recovery, replays) implements this interface; the in-memory log
// below is the default.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/state.hpp"

namespace duelhall::server {

class ActionLog {
 public:
  virtual ~ActionLog() = default;
  virtual void started(uint64_t match_id, const engine::MatchConfig& config) = 0;
  virtual void appended(uint64_t match_id, const engine::Step& step) = 0;
  virtual void ended(uint64_t match_id, const std::string& result) = 0;
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
  void started(uint64_t, const engine::MatchConfig& config) override { config_ = config; }
  void appended(uint64_t, const engine::Step& step) override { steps_.push_back(step); }
  void ended(uint64_t, const std::string& result) override { result_ = result; }
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
