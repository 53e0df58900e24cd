#include "app/recovery.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

namespace duelhall::server {

int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

// The public view as the spectators last saw it: `delay` actions behind the match.
std::string delayed_public_view(const engine::Registry& registry, const storage::StoredMatch& match,
                                const engine::State& state, uint32_t delay) {
  if (delay == 0) return state.view(engine::Viewer::spectator());
  const size_t shown = match.steps.size() > delay ? match.steps.size() - delay : 0;
  std::vector<engine::Step> prefix(match.steps.begin(),
                                   match.steps.begin() + static_cast<std::ptrdiff_t>(shown));
  std::string error;
  auto earlier = engine::replay(registry, match.config, prefix, error);
  return earlier ? earlier->view(engine::Viewer::spectator()) : std::string();
}

}  // namespace

RecoveryReport recover_matches(storage::MatchStore& store, const engine::Registry& registry,
                               Hub& hub) {
  RecoveryReport report;
  hub.continue_ids_after(static_cast<uint64_t>(store.last_match_id()));
  for (storage::StoredMatch& stored : store.unfinished_matches()) {
    const auto id = stored.summary.id;
    auto abandon = [&](const std::string& why) {
      spdlog::error("match {} cannot be resumed and is recorded as abandoned: {}", id, why);
      store.abandon_match(id, "not resumed after a restart: " + why, unix_now_ms());
      ++report.abandoned;
    };
    if (!stored.problem.empty()) {
      abandon(stored.problem);
      continue;
    }
    RecoveredMatch recovered;
    if (stored.server_record.empty() || !recovered.hosted.ParseFromString(stored.server_record)) {
      abandon("its hosting settings are missing or unreadable");
      continue;
    }
    std::string error;
    recovered.state = engine::replay(registry, stored.config, stored.steps, error);
    if (!recovered.state) {
      abandon(error);
      continue;
    }
    if (recovered.state->terminal()) {
      // The process died between the last action's commit and the end's.
      store.finish_match(id, recovered.state->outcome(), unix_now_ms());
      ++report.finished;
      continue;
    }
    recovered.id = static_cast<uint64_t>(id);
    recovered.names = stored.summary.names;
    recovered.token_hashes = stored.token_hashes;
    recovered.public_view = delayed_public_view(
        registry, stored, *recovered.state, recovered.hosted.settings().spectator_delay_actions());
    hub.recover(std::move(recovered));
    ++report.resumed;
  }
  if (report.resumed > 0) hub.arm_recovery_grace();
  return report;
}

storage::RetentionPolicy retention_of(const Config& config) {
  storage::RetentionPolicy policy;
  if (config.retention_days > 0) policy.max_age_days = static_cast<int>(config.retention_days);
  if (config.retention_matches > 0) policy.keep_finished = config.retention_matches;
  return policy;
}

}  // namespace duelhall::server
