// The logs the storage benchmark compares: in memory (the server without storage) and the SQLite
// MatchStore, through GroupCommitLog or committing every write alone.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "core/version.hpp"
#include "storage/group_commit.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"

namespace duelhall::bench {

// Where matches and accepted actions go. `create` and `append` call back once written.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void create(const engine::State& state, uint64_t n,
                      std::function<void(storage::MatchId)> created) = 0;
  virtual void append(const storage::LoggedAction& action, std::function<void()> ready) = 0;
  virtual void finish(storage::MatchId id, const engine::Outcome& outcome) = 0;
};

class MemorySink final : public Sink {
 public:
  void create(const engine::State&, uint64_t,
              std::function<void(storage::MatchId)> created) override {
    storage::MatchId id = 0;
    {
      std::lock_guard lock(mutex_);
      id = ++next_id_;
    }
    created(id);
  }
  void append(const storage::LoggedAction& action, std::function<void()> ready) override {
    {
      std::lock_guard lock(mutex_);
      log_.push_back(action);
    }
    ready();
  }
  void finish(storage::MatchId, const engine::Outcome&) override {}

 private:
  std::mutex mutex_;
  std::vector<storage::LoggedAction> log_;
  storage::MatchId next_id_ = 0;
};

class StoreSink final : public Sink {
 public:
  StoreSink(const std::string& path, bool sync_full, bool group)
      : store_(path, options(sync_full)), group_(group) {
    if (group_) log_.emplace(store_);
  }
  void create(const engine::State& state, uint64_t n,
              std::function<void(storage::MatchId)> created) override {
    storage::NewMatch match;
    match.config = state.config();
    match.names = std::vector<std::string>(static_cast<size_t>(state.num_seats()), "bench");
    match.names[0] += std::to_string(n);
    match.engine_version = std::string(engine::kEngineVersion);
    if (!group_) {
      created(store_.create_match(match));
      return;
    }
    log_->create_match(std::move(match),
                       [created = std::move(created)](const storage::WriteResult& r) {
                         check(r);
                         created(r.created);
                       });
  }
  void append(const storage::LoggedAction& action, std::function<void()> ready) override {
    if (!group_) {
      store_.append(action);
      ready();
      return;
    }
    log_->append(action, [ready = std::move(ready)](const storage::WriteResult& result) {
      check(result);
      ready();
    });
  }
  void finish(storage::MatchId id, const engine::Outcome& outcome) override {
    if (!group_) {
      store_.finish_match(id, outcome, 0);
      return;
    }
    log_->end_match({id, storage::MatchStatus::kFinished, fairness::record_outcome(outcome), 0},
                    check);
  }
  // Waits for every queued append, then reports the batching.
  storage::GroupCommitStats drain() {
    if (!log_) return {};
    auto stats = log_->stats();
    log_.reset();
    return stats;
  }

 private:
  static void check(const storage::WriteResult& result) {
    if (!result.ok) {
      std::fprintf(stderr, "write failed: %s\n", result.error.c_str());
      std::exit(1);
    }
  }
  static storage::StoreOptions options(bool sync_full) {
    storage::StoreOptions o;
    o.sync = sync_full ? storage::StoreOptions::Sync::kFull : storage::StoreOptions::Sync::kNormal;
    return o;
  }
  storage::SqliteMatchStore store_;
  bool group_;
  std::optional<storage::GroupCommitLog> log_;
};

}  // namespace duelhall::bench
