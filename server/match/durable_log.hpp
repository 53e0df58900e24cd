// The ActionLog over the SQLite store: every match's writes go through one GroupCommitLog, whose
// writer thread commits many matches' actions per transaction and reports each action durable
// once its transaction is synced. The match ids are the hub's, so a match keeps its id across a
// restart and in the replay listing.
//
// Given an I/O executor, the factory hands the writer's reports over to the I/O threads as one
// batch per commit instead of one cross-thread post (and possibly one wake-up of a sleeping I/O
// thread) per action: the writer queues each report, the first report of a batch posts one drain,
// and the drain runs the reports on an I/O thread, where each match's post to its own strand
// stays on that thread's queue.
//
// Ownership runs one way: the factory owns the relay, a queued report owns its match (through
// the match's Durable), and a match's log only refers to the relay (weak_ptr). Were the log to
// own the relay, a report queued when the I/O loop stops (its drain never run) would keep the
// relay, its match and the match's log alive in a cycle after everything else is gone. When the
// factory goes, the relay is closed: its queued reports are dropped (their matches released)
// and later ones, from a writer finishing its queue, are dropped as they come.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/action_log.hpp"
#include "storage/group_commit.hpp"

namespace duelhall::server {

// The writer's reports on their way to the I/O threads (see above).
class DurableRelay : public std::enable_shared_from_this<DurableRelay> {
 public:
  explicit DurableRelay(boost::asio::any_io_executor io) : io_(std::move(io)) {}
  // From the writer thread: `durable` runs on an I/O thread, after the reports before it.
  void report(Durable durable, LogOutcome outcome);
  // Drops the queued reports and every later one, unrun: the I/O loop will not run them.
  void close();
  size_t drains() const;  // posts made so far (for tests)

 private:
  void drain();

  boost::asio::any_io_executor io_;
  mutable std::mutex mutex_;
  std::vector<std::pair<Durable, LogOutcome>> queued_;
  std::vector<std::pair<Durable, LogOutcome>> running_;  // the drain's batch, reused
  bool posted_ = false;                                  // a drain is posted or running
  bool closed_ = false;
  size_t drains_ = 0;
};

class DurableLogFactory final : public ActionLogFactory {
 public:
  // Without an executor the reports run on the writer thread, as the match's durable() expects
  // from any thread.
  explicit DurableLogFactory(storage::GroupCommitLog& log,
                             std::optional<boost::asio::any_io_executor> io = std::nullopt);
  ~DurableLogFactory() override;
  DurableLogFactory(const DurableLogFactory&) = delete;
  DurableLogFactory& operator=(const DurableLogFactory&) = delete;
  std::unique_ptr<ActionLog> open(uint64_t match_id) override;

 private:
  storage::GroupCommitLog& log_;
  std::shared_ptr<DurableRelay> relay_;  // null: no executor. Owned here and by a posted drain
};

}  // namespace duelhall::server
