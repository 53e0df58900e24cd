#include "storage/group_commit.hpp"

#include <algorithm>

namespace duelhall::storage {

GroupCommitLog::GroupCommitLog(MatchStore& store) : GroupCommitLog(store, Options{}) {}

GroupCommitLog::GroupCommitLog(MatchStore& store, Options options)
    : store_(store), options_(options), writer_([this] { run(); }) {}

GroupCommitLog::~GroupCommitLog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  writer_.join();
}

void GroupCommitLog::append(const LoggedAction& action, AppendDone done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({action, std::move(done)});
  }
  wake_.notify_one();
}

std::future<AppendResult> GroupCommitLog::append(const LoggedAction& action) {
  auto promise = std::make_shared<std::promise<AppendResult>>();
  auto future = promise->get_future();
  append(action, [promise](const AppendResult& result) { promise->set_value(result); });
  return future;
}

GroupCommitStats GroupCommitLog::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void GroupCommitLog::run() {
  std::vector<Pending> batch;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to commit
      const size_t take = std::min(queue_.size(), options_.max_batch);
      batch.assign(std::make_move_iterator(queue_.begin()),
                   std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(take)));
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(take));
    }
    commit(batch);
    batch.clear();
  }
}

void GroupCommitLog::commit(std::vector<Pending>& batch) {
  std::vector<LoggedAction> actions;
  actions.reserve(batch.size());
  for (const Pending& p : batch) actions.push_back(p.action);
  std::vector<AppendResult> results(batch.size());
  try {
    store_.append_batch(actions);
  } catch (const StoreError&) {
    // Find the culprits: each alone, in order, so that the others are still written.
    for (size_t i = 0; i < batch.size(); ++i) {
      try {
        store_.append(batch[i].action);
      } catch (const StoreError& e) {
        results[i] = {false, e.what()};
      }
    }
  }
  int64_t failed = 0;
  for (const AppendResult& r : results) failed += r.ok ? 0 : 1;
  {
    std::lock_guard lock(mutex_);
    stats_.appended += static_cast<int64_t>(batch.size()) - failed;
    stats_.failed += failed;
    stats_.batches += 1;
    stats_.largest_batch = std::max(stats_.largest_batch, static_cast<int64_t>(batch.size()));
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].done) batch[i].done(results[i]);
  }
}

}  // namespace duelhall::storage
