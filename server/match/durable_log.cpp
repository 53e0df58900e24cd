#include "match/durable_log.hpp"

#include <spdlog/spdlog.h>

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
  explicit DurableLog(storage::GroupCommitLog& log) : log_(log) {}

  void started(uint64_t match_id, const MatchStart& start) override {
    storage::NewMatch match;
    match.config = start.config;
    match.names = start.names;
    match.reconnect_tokens = start.tokens;
    match.engine_version = std::string(engine::kEngineVersion);
    match.created_ms = now_ms();
    match.id = static_cast<storage::MatchId>(match_id);
    match.server_record = start.server_record;
    // A failure shows again at the match's first append, which ends the match.
    log_.create_match(std::move(match), [match_id](const storage::WriteResult& result) {
      if (!result.ok) spdlog::error("match {}: could not store it: {}", match_id, result.error);
    });
  }

  void appended(uint64_t match_id, uint32_t index, const engine::Step& step,
                Durable durable) override {
    storage::LoggedAction action{static_cast<storage::MatchId>(match_id), index, step.seat,
                                 step.action, now_ms()};
    log_.append(action, [durable = std::move(durable)](const storage::WriteResult& result) {
      durable(result.ok ? std::string() : result.error);
    });
  }

  void ended(uint64_t match_id, const MatchEnd& end) override {
    storage::MatchEnding ending;
    ending.match = static_cast<storage::MatchId>(match_id);
    ending.status =
        end.aborted ? storage::MatchStatus::kAbandoned : storage::MatchStatus::kFinished;
    ending.outcome = fairness::RecordedOutcome{end.winners.bits(), end.scores, end.reason};
    ending.ended_ms = now_ms();
    log_.end_match(ending, [match_id](const storage::WriteResult& result) {
      if (!result.ok)
        spdlog::error("match {}: could not store its end: {}", match_id, result.error);
    });
  }

 private:
  storage::GroupCommitLog& log_;
};

}  // namespace

std::unique_ptr<ActionLog> DurableLogFactory::open(uint64_t) {
  return std::make_unique<DurableLog>(log_);
}

}  // namespace duelhall::server
