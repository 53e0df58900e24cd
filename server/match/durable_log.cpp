#include "match/durable_log.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include <atomic>
#include <chrono>

#include "core/version.hpp"

namespace duelhall::server {
namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class DurableLog final : public ActionLog {
 public:
  DurableLog(storage::GroupCommitLog& log, const std::shared_ptr<DurableRelay>& relay)
      : log_(log), relay_(relay), relayed_(relay != nullptr) {}

  void owned(uint64_t match_id, int64_t epoch, const std::string& node, bool claim) override {
    epoch_ = epoch;
    node_ = node;
    if (!claim) {
      stored_ = true;  // claimed by the caller, whose match is stored already
      return;
    }
    if (!stored_) return;  // the creation claims it
    log_.claim(static_cast<storage::MatchId>(match_id), epoch, node,
               [fenced = fenced_, match_id, epoch](const storage::WriteResult& result) {
                 if (result.ok) return;
                 if (result.stale) fenced->store(true);
                 spdlog::error("match {}: could not claim it at epoch {}: {}", match_id, epoch,
                               result.error);
               });
  }

  bool fenced() const override { return fenced_->load(); }

  void started(uint64_t match_id, const MatchStart& start) override {
    storage::NewMatch match;
    match.config = start.config;
    match.names = start.names;
    match.reconnect_tokens = start.tokens;
    match.engine_version = std::string(engine::kEngineVersion);
    match.created_ms = now_ms();
    match.id = static_cast<storage::MatchId>(match_id);
    match.server_record = start.server_record;
    match.epoch = epoch_;
    if (epoch_ != 0) match.node = node_;
    stored_ = true;
    creation_ = std::move(match);
    create();
  }

  void appended(uint64_t match_id, uint32_t index, const engine::Step& step,
                Durable durable) override {
    storage::LoggedAction action{
        static_cast<storage::MatchId>(match_id), index, step.seat, step.action, now_ms(), epoch_};
    retry_creation();
    log_.append(action, report_to(std::move(durable)));
  }

  void ended(uint64_t match_id, const MatchEnd& end, Durable durable) override {
    storage::MatchEnding ending;
    ending.match = static_cast<storage::MatchId>(match_id);
    ending.status =
        end.aborted ? storage::MatchStatus::kAbandoned : storage::MatchStatus::kFinished;
    ending.outcome = fairness::RecordedOutcome{end.winners.bits(), end.scores, end.reason};
    ending.ended_ms = now_ms();
    ending.epoch = epoch_;
    ending.steps = end.steps;
    retry_creation();
    log_.end_match(
        ending, report_to([match_id, durable = std::move(durable)](const LogOutcome& outcome) {
          if (!outcome.error.empty()) {
            spdlog::error("match {}: could not store its end: {}", match_id, outcome.error);
          }
          durable(outcome);
        }));
  }

  void probe(Durable done) override {
    retry_creation();
    log_.probe(report_to(std::move(done)));
  }

 private:
  // Where the match's creation stands in the store. The writer completes in order, so by the
  // time a later write of the match completes, its creation's outcome is known.
  enum class Creation { kQueued, kStored, kUnavailable, kRefused };

  // A failure shows at the match's next write: a refusal ends the match; a store that could not
  // take it pauses the match, and the creation is queued again ahead of its next write (an
  // action tried again, the probe that ends the wait), so no action is acknowledged before the
  // match is in the store.
  void create() {
    creation_state_->store(Creation::kQueued);
    log_.create_match(*creation_, [match_id = creation_->id,
                                   state = creation_state_](const storage::WriteResult& result) {
      if (result.ok) {
        state->store(Creation::kStored);
        return;
      }
      state->store(result.unavailable ? Creation::kUnavailable : Creation::kRefused);
      spdlog::error("match {}: could not store it: {}", match_id, result.error);
    });
  }
  void retry_creation() {
    if (creation_ && creation_state_->load() == Creation::kUnavailable) create();
  }

  // The writer's completion for a write of this match: the outcome goes to `durable` through
  // the relay (or on the writer thread without one). The fenced flag is set on the writer thread
  // before the report leaves it, so the match sees it with the report.
  storage::WriteDone report_to(Durable durable) const {
    if (!relayed_) {
      return [fenced = fenced_, creation = creation_state_,
              durable = std::move(durable)](const storage::WriteResult& result) {
        if (result.stale) fenced->store(true);
        durable(outcome_of(result, *creation));
      };
    }
    return [relay = relay_, fenced = fenced_, creation = creation_state_,
            durable = std::move(durable)](const storage::WriteResult& result) mutable {
      if (result.stale) fenced->store(true);
      // No relay: the server is shutting down and nobody will run the report.
      if (auto live = relay.lock()) {
        live->report(std::move(durable), outcome_of(result, *creation));
      }
    };
  }
  // A write refused because the store could not take the match's creation waits for the store
  // like the creation, rather than end the match.
  static LogOutcome outcome_of(const storage::WriteResult& result,
                               const std::atomic<Creation>& creation) {
    if (result.ok) return {};
    return {result.error, result.unavailable || creation.load() == Creation::kUnavailable};
  }

  storage::GroupCommitLog& log_;
  // Not owned: a queued report owns this log's match (see durable_log.hpp).
  std::weak_ptr<DurableRelay> relay_;
  bool relayed_ = false;  // reports go through the relay (while there is one)
  // Cluster mode: the owner's epoch and name, set on the match's strand like every other call.
  int64_t epoch_ = 0;
  std::string node_;
  bool stored_ = false;  // the match is in the store (created by this log, or recovered)
  std::optional<storage::NewMatch> creation_;  // kept for a retry of the creation
  // Shared with the writer's callbacks; kStored for a match created before this log (recovered).
  std::shared_ptr<std::atomic<Creation>> creation_state_ =
      std::make_shared<std::atomic<Creation>>(Creation::kStored);
  // Shared with the writer's callbacks, which may outlive this log.
  std::shared_ptr<std::atomic<bool>> fenced_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace

void DurableRelay::report(Durable durable, LogOutcome outcome) {
  bool post = false;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;  // `durable` (and maybe its match) goes here, outside the lock
    queued_.emplace_back(std::move(durable), std::move(outcome));
    post = !posted_;
    if (post) {
      posted_ = true;
      ++drains_;
    }
  }
  if (post) boost::asio::post(io_, [self = shared_from_this()] { self->drain(); });
}

void DurableRelay::close() {
  std::vector<std::pair<Durable, LogOutcome>> dropped;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    dropped.swap(queued_);
  }
  // Outside the lock: releasing a match runs its destructor.
}

size_t DurableRelay::drains() const {
  std::lock_guard lock(mutex_);
  return drains_;
}

void DurableRelay::drain() {
  // One drain at a time, until nothing is queued: the reports run in the writer's order.
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (queued_.empty()) {
        posted_ = false;
        return;
      }
      running_.swap(queued_);  // the writer keeps the capacity the last batch left
    }
    for (auto& [durable, outcome] : running_) durable(outcome);
    running_.clear();  // outside the lock: this may release a match
  }
}

DurableLogFactory::DurableLogFactory(storage::GroupCommitLog& log,
                                     std::optional<boost::asio::any_io_executor> io)
    : log_(log), relay_(io ? std::make_shared<DurableRelay>(*io) : nullptr) {}

DurableLogFactory::~DurableLogFactory() {
  if (relay_) relay_->close();
}

std::unique_ptr<ActionLog> DurableLogFactory::open(uint64_t) {
  return std::make_unique<DurableLog>(log_, relay_);
}

}  // namespace duelhall::server
