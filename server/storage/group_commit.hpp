// GroupCommitLog: how the server appends accepted actions. Each match's strand calls `append`
// (which never blocks on disk) and sends the action's diffs only from the completion callback,
// so that whatever a client saw is on disk.
//
// One writer thread takes everything queued, writes it in one transaction and syncs once, then
// completes the whole batch. While one commit is being synced the next batch gathers, so under
// load many matches share each fsync and durability costs one sync per batch, not per action,
// without adding any waiting when the server is idle.
//
// Callbacks run on the writer thread, in append order; they must be short (post to the match's
// strand). If a batch fails, each of its actions is retried alone, so that one bad append (a
// duplicate or out-of-order index) fails only its own match; a failed append's callback gets the
// error, and the server should end that match.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/match_store.hpp"

namespace duelhall::storage {

struct AppendResult {
  bool ok = true;
  std::string error;
};

using AppendDone = std::function<void(const AppendResult&)>;

struct GroupCommitStats {
  int64_t appended = 0;
  int64_t failed = 0;
  int64_t batches = 0;
  int64_t largest_batch = 0;
};

class GroupCommitLog {
 public:
  struct Options {
    size_t max_batch = 4096;  // bounds one transaction's size and latency
  };

  explicit GroupCommitLog(MatchStore& store);
  GroupCommitLog(MatchStore& store, Options options);
  // Commits everything already queued, completes it, then stops the writer.
  ~GroupCommitLog();
  GroupCommitLog(const GroupCommitLog&) = delete;
  GroupCommitLog& operator=(const GroupCommitLog&) = delete;

  void append(const LoggedAction& action, AppendDone done);
  std::future<AppendResult> append(const LoggedAction& action);

  GroupCommitStats stats() const;

 private:
  struct Pending {
    LoggedAction action;
    AppendDone done;
  };
  void run();
  void commit(std::vector<Pending>& batch);

  MatchStore& store_;
  Options options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Pending> queue_;
  bool stopping_ = false;
  GroupCommitStats stats_;
  std::thread writer_;
};

}  // namespace duelhall::storage
