// GroupCommitLog: how the live server writes. Each match's strand calls `append` for an
// accepted action (which never blocks on disk) and sends the action's diffs only from the
// completion callback, so that whatever a client saw is on disk. Creating and ending matches go
// through the same queue, so that no server thread ever waits for a disk sync.
//
// One writer thread takes everything queued, writes it in one transaction and syncs once, then
// completes the whole batch. While one commit is being synced the next batch gathers, so under
// load many matches share each fsync and durability costs one sync per batch, not per action,
// without adding any waiting when the server is idle.
//
// Callbacks run on the writer thread, in append order; they must be short (post to the match's
// strand). If a batch fails, each of its actions is retried alone, so that one bad append (a
// duplicate or out-of-order index) fails only its own match; a failed append's callback gets the
// error, and the server should end that match. A batch that fails because the store cannot be
// reached or cannot write (StoreUnavailableError) fails whole, each write marked `unavailable`:
// the matches wait for the store (probe() says when it is back) rather than end.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "storage/match_store.hpp"

namespace duelhall::storage {

struct WriteResult {
  bool ok = true;
  std::string error;
  MatchId created = 0;  // for create_match: the new match's id
  // The store refused the write as fenced (StaleEpochError): another node owns the match now.
  bool stale = false;
  // The store could not be reached or could not write (StoreUnavailableError): nothing was
  // written, and the same write may succeed later.
  bool unavailable = false;
};

using WriteDone = std::function<void(const WriteResult&)>;

struct GroupCommitStats {
  int64_t appended = 0;
  int64_t failed = 0;
  int64_t batches = 0;
  int64_t largest_batch = 0;
  double writer_cpu_seconds = 0;  // CPU time the writer thread spent committing and completing
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

  // The match may be used (appended to) once `done` has its id.
  void create_match(NewMatch match, WriteDone done);
  void append(const LoggedAction& action, WriteDone done);
  std::future<WriteResult> append(const LoggedAction& action);
  void end_match(const MatchEnding& ending, WriteDone done);
  // MatchStore::claim_match, in order with the writes queued before and after it: the match's
  // appends queued after the claim carry its epoch, those before it are written before it.
  void claim(MatchId match, int64_t epoch, std::string node, WriteDone done);
  // MatchStore::check, in order with the writes: `done` gets `unavailable` while the store
  // cannot take writes. The probes of one batch share one check.
  void probe(WriteDone done);
  // The last batch or probe found the store working (true until one fails to reach it).
  bool store_available() const { return available_.load(); }

  GroupCommitStats stats() const;

 private:
  struct Claim {
    MatchId match = 0;
    int64_t epoch = 0;
    std::string node;
  };
  struct Probe {};
  using Operation = std::variant<MatchWrite, Claim, Probe>;
  struct Pending {
    Operation write;
    WriteDone done;
  };
  void enqueue(Operation write, WriteDone done);
  void run();
  void commit(std::vector<Pending>& batch);
  // Writes batch[first, first + count) (no claims or probes among them) in one transaction, or
  // each alone when that fails, into `results`.
  void write_run(std::vector<Pending>& batch, size_t first, size_t count,
                 std::vector<WriteResult>& results);

  MatchStore& store_;
  Options options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Pending> queue_;
  bool stopping_ = false;
  bool writer_idle_ = false;  // waiting for work: only then does an append need to wake it
  std::atomic<bool> available_{true};
  GroupCommitStats stats_;
  // The writer thread's own, reused by each batch.
  std::vector<MatchWrite> writes_;
  std::vector<MatchId> created_;
  std::vector<WriteResult> results_;
  std::thread writer_;
};

}  // namespace duelhall::storage
