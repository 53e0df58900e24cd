#include "storage/group_commit.hpp"

#include "metrics/server_metrics.hpp"

#include <time.h>

#include <algorithm>
#include <optional>

namespace duelhall::storage {
namespace {

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

}  // namespace

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

void GroupCommitLog::enqueue(Operation write, WriteDone done) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(write), std::move(done)});
    wake = writer_idle_;
    writer_idle_ = false;
  }
  // A busy writer takes the queue when its commit is done; waking it costs a system call.
  if (wake) wake_.notify_one();
}

void GroupCommitLog::create_match(NewMatch match, WriteDone done) {
  enqueue(MatchWrite(std::move(match)), std::move(done));
}

void GroupCommitLog::append(const LoggedAction& action, WriteDone done) {
  enqueue(MatchWrite(action), std::move(done));
}

std::future<WriteResult> GroupCommitLog::append(const LoggedAction& action) {
  auto promise = std::make_shared<std::promise<WriteResult>>();
  auto future = promise->get_future();
  append(action, [promise](const WriteResult& result) { promise->set_value(result); });
  return future;
}

void GroupCommitLog::end_match(const MatchEnding& ending, WriteDone done) {
  enqueue(MatchWrite(ending), std::move(done));
}

void GroupCommitLog::claim(MatchId match, int64_t epoch, std::string node, WriteDone done) {
  enqueue(Claim{match, epoch, std::move(node)}, std::move(done));
}

void GroupCommitLog::probe(WriteDone done) {
  enqueue(Probe{}, std::move(done));
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
      writer_idle_ = queue_.empty();
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      writer_idle_ = false;
      if (queue_.empty()) return;  // stopping, and nothing left to commit
      const size_t take = std::min(queue_.size(), options_.max_batch);
      if (take == queue_.size()) {
        batch.swap(queue_);  // the queue goes on in the last batch's (cleared) storage
      } else {
        batch.assign(std::make_move_iterator(queue_.begin()),
                     std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(take)));
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(take));
      }
    }
    commit(batch);
    batch.clear();
  }
}

void GroupCommitLog::write_run(std::vector<Pending>& batch, size_t first, size_t count,
                               std::vector<WriteResult>& results) {
  if (count == 0) return;
  // Moved, not copied: a write is needed only here (a moved-from variant keeps its alternative,
  // which is all hand_out_ids reads). The vectors keep their capacity from batch to batch.
  std::vector<MatchWrite>& writes = writes_;
  writes.clear();
  for (size_t i = first; i < first + count; ++i) {
    writes.push_back(std::move(std::get<MatchWrite>(batch[i].write)));
  }
  std::vector<MatchId>& created = created_;
  created.clear();
  auto hand_out_ids = [&](size_t from, size_t n) {
    size_t next = 0;
    for (size_t i = from; i < from + n; ++i) {
      const auto& write = std::get<MatchWrite>(batch[i].write);
      if (results[i].ok && std::holds_alternative<NewMatch>(write)) {
        results[i].created = created.at(next++);
      }
    }
  };
  try {
    store_.write_batch(writes, &created);
    hand_out_ids(first, count);
  } catch (const StoreUnavailableError& e) {
    // Alone, each would fail the same way (and wait for the same time-out).
    for (size_t i = first; i < first + count; ++i) results[i] = {false, e.what(), 0, false, true};
  } catch (const StoreError&) {
    // Find the culprits: each alone, in order, so that the others are still written.
    for (size_t i = 0; i < count; ++i) {
      created.clear();
      try {
        store_.write_batch(std::span<const MatchWrite>(&writes[i], 1), &created);
        hand_out_ids(first + i, 1);
      } catch (const StaleEpochError& e) {
        results[first + i] = {false, e.what(), 0, true};
      } catch (const StoreUnavailableError& e) {
        results[first + i] = {false, e.what(), 0, false, true};
      } catch (const StoreError& e) {
        results[first + i] = {false, e.what(), 0, false};
      }
    }
  }
}

void GroupCommitLog::commit(std::vector<Pending>& batch) {
  const double cpu_start = thread_cpu_seconds();
  const auto started = std::chrono::steady_clock::now();
  std::vector<WriteResult>& results = results_;
  results.assign(batch.size(), WriteResult{});
  // Claims are rare (one per match and owner): the writes between two of them share a
  // transaction, and each claim is made between its neighbours, in the order they were queued.
  size_t run_start = 0;
  std::optional<WriteResult> probed;  // the batch's one check, made at its first probe
  for (size_t i = 0; i < batch.size(); ++i) {
    if (std::holds_alternative<MatchWrite>(batch[i].write)) continue;
    write_run(batch, run_start, i - run_start, results);
    run_start = i + 1;
    if (std::holds_alternative<Probe>(batch[i].write)) {
      if (!probed) {
        probed.emplace();
        try {
          store_.check();
        } catch (const StoreError& e) {
          *probed = {false, e.what(), 0, false, true};
        }
      }
      results[i] = *probed;
      continue;
    }
    const auto& claim = std::get<Claim>(batch[i].write);
    try {
      store_.claim_match(claim.match, claim.epoch, claim.node);
    } catch (const StaleEpochError& e) {
      results[i] = {false, e.what(), 0, true};
    } catch (const StoreUnavailableError& e) {
      results[i] = {false, e.what(), 0, false, true};
    } catch (const StoreError& e) {
      results[i] = {false, e.what(), 0, false};
    }
  }
  write_run(batch, run_start, batch.size() - run_start, results);
  // The store works when anything reached it, and is out when the last thing tried could not.
  for (const WriteResult& r : results) {
    if (r.unavailable) {
      available_ = false;
    } else if (r.ok) {
      available_ = true;
    }
  }
  metrics::server_metrics().commit_latency.observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  int64_t failed = 0;
  int64_t probes = 0;  // not writes: left out of the counts
  for (size_t i = 0; i < batch.size(); ++i) {
    if (std::holds_alternative<Probe>(batch[i].write)) {
      ++probes;
    } else {
      failed += results[i].ok ? 0 : 1;
    }
  }
  {
    std::lock_guard lock(mutex_);
    stats_.appended += static_cast<int64_t>(batch.size()) - failed - probes;
    stats_.failed += failed;
    stats_.batches += 1;
    stats_.largest_batch = std::max(stats_.largest_batch, static_cast<int64_t>(batch.size()));
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].done) batch[i].done(results[i]);
  }
  const double cpu = thread_cpu_seconds() - cpu_start;
  std::lock_guard lock(mutex_);
  stats_.writer_cpu_seconds += cpu;
}

}  // namespace duelhall::storage
