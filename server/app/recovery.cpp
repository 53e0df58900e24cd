#include "app/recovery.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <map>
#include <stdexcept>

namespace duelhall::server {

int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

// The spectators' stream as the host's delay leaves it at `now_ms`: a step is shown once
// `delay_actions` more have followed it and `delay_seconds` have passed since it was stored (as
// Match::release_spectators decides live); the later ones are replayed with their public views
// and events, to be released as they fall due.
RecoveredSpectators spectator_stream(const engine::Registry& registry,
                                     const storage::StoredMatch& match, const engine::State& state,
                                     const MatchSettings& settings, int64_t now_ms) {
  RecoveredSpectators stream;
  const size_t total = match.steps.size();
  const size_t delay_actions = settings.spectator_delay_actions();
  const int64_t delay_ms = int64_t{settings.spectator_delay_seconds()} * 1000;
  auto stored_at = [&](size_t i) { return i < match.step_ms.size() ? match.step_ms[i] : 0; };
  size_t shown = 0;
  while (shown + delay_actions < total && stored_at(shown) + delay_ms <= now_ms) ++shown;
  if (!settings.spectators_allowed() || shown == total) {
    stream.seq = total;
    stream.view = state.view(engine::Viewer::spectator());
    return stream;
  }
  std::map<std::string, std::string> raw = match.config.params.values();
  auto created = registry.create(match.config.ruleset, match.config.seats, match.config.seed, raw,
                                 match.config.seat_options);
  if (!created.state) throw std::runtime_error(created.error);
  engine::State& replayed = *created.state;
  for (size_t i = 0; i < total; ++i) {
    if (i == shown) {
      stream.seq = shown;
      stream.view = replayed.view(engine::Viewer::spectator());
    }
    std::vector<engine::Event> events;
    if (!replayed.apply(match.steps[i].seat, match.steps[i].action, &events).ok()) {
      throw std::runtime_error("step " + std::to_string(i) + " no longer replays");
    }
    if (i < shown) continue;
    RecoveredSpectators::Step step;
    step.seq = i + 1;
    step.due_in_ms = stored_at(i) + delay_ms - now_ms;
    step.view = replayed.view(engine::Viewer::spectator());
    for (const auto& e : events) {
      if (auto text = e.text_for(engine::Viewer::spectator())) step.events.emplace_back(*text);
    }
    stream.held.push_back(std::move(step));
  }
  return stream;
}

// Rebuilds a stored match for the hub: its hosting settings, its state replayed, its seats and
// the spectators' stream at `now_ms`. Returns why it cannot be, or nothing.
std::string rebuild(const engine::Registry& registry, const storage::StoredMatch& stored,
                    int64_t now_ms, RecoveredMatch& recovered) {
  if (!stored.problem.empty()) return stored.problem;
  if (stored.server_record.empty() || !recovered.hosted.ParseFromString(stored.server_record)) {
    return "its hosting settings are missing or unreadable";
  }
  std::string error;
  recovered.state = engine::replay(registry, stored.config, stored.steps, error);
  if (!recovered.state) return error.empty() ? "its log no longer replays" : error;
  recovered.id = static_cast<uint64_t>(stored.summary.id);
  recovered.names = stored.summary.names;
  recovered.token_hashes = stored.token_hashes;
  try {
    recovered.spectators =
        spectator_stream(registry, stored, *recovered.state, recovered.hosted.settings(), now_ms);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

Outcome outcome_of(const fairness::RecordedOutcome& recorded, int seats) {
  Outcome outcome;
  for (int s = 0; s < seats; ++s) {
    if ((recorded.winners >> s) & 1u) outcome.add_winners(static_cast<uint32_t>(s));
  }
  for (int32_t score : recorded.scores) outcome.add_scores(score);
  outcome.set_reason(recorded.reason);
  return outcome;
}

// A match whose end was stored less than the listing time ago comes back ended, for the rest of
// that time: the process may have died between the end's commit and the writes of the frames
// that showed it, and its players come back with their tokens to be shown the end. Imported
// records (never hosted here) and records that no longer replay are left to the replays.
void recover_recently_ended(storage::MatchStore& store, const engine::Registry& registry, Hub& hub,
                            RecoveryReport& report) {
  const int64_t now = unix_now_ms();
  const int64_t listed_ms = int64_t{hub.config().finished_linger_seconds} * 1000;
  for (storage::StoredMatch& stored : store.recently_ended_matches(now - listed_ms)) {
    const storage::MatchSummary& summary = stored.summary;
    RecoveredMatch recovered;
    if (!summary.outcome || !summary.ended_ms ||
        !rebuild(registry, stored, now, recovered).empty()) {
      continue;
    }
    RecoveredEnding ending;
    ending.aborted = summary.status == storage::MatchStatus::kAbandoned;
    ending.outcome = outcome_of(*summary.outcome, summary.seats);
    ending.listed_for =
        std::chrono::milliseconds(std::max<int64_t>(0, *summary.ended_ms + listed_ms - now));
    recovered.ending = std::move(ending);
    hub.recover(std::move(recovered));
    ++report.ended;
  }
}

}  // namespace

void recover_stored(storage::MatchStore& store, const engine::Registry& registry, Hub& hub,
                    storage::StoredMatch& stored, RecoveryReport& report, int64_t epoch) {
  const auto id = stored.summary.id;
  auto abandon = [&](const std::string& why) {
    spdlog::error("match {} cannot be resumed and is recorded as abandoned: {}", id, why);
    // With the epoch the node holds the match at: a cluster's store fences the ending too.
    const storage::MatchWrite ending =
        storage::MatchEnding{id,
                             storage::MatchStatus::kAbandoned,
                             {0, {}, "not resumed after a restart: " + why},
                             unix_now_ms(),
                             epoch};
    store.write_batch(std::span<const storage::MatchWrite>(&ending, 1));
    ++report.abandoned;
  };
  RecoveredMatch recovered;
  if (const std::string why = rebuild(registry, stored, unix_now_ms(), recovered); !why.empty()) {
    return abandon(why);
  }
  // The process died between the last action's commit and the end's: the match comes back
  // finished, so that its players, who may not have seen the last step, are shown the end when
  // they come back, and the match writes its end (and its ratings) as any match does.
  const bool finished = recovered.state->terminal();
  recovered.epoch = epoch;
  hub.recover(std::move(recovered));
  ++(finished ? report.finished : report.resumed);
}

RecoveryReport recover_matches(storage::MatchStore& store, const engine::Registry& registry,
                               Hub& hub, const RecoveryFilter& take) {
  RecoveryReport report;
  hub.continue_ids_after(static_cast<uint64_t>(store.last_match_id()));
  // First: a live match whose last step ended it is ended on recovery, and must not be read
  // back here as well. In a cluster an ended match's listing is the node's that ended it.
  if (!take) recover_recently_ended(store, registry, hub, report);
  for (storage::StoredMatch& stored : store.unfinished_matches()) {
    std::optional<int64_t> epoch = 0;
    if (take) epoch = take(stored.summary.id);
    if (!epoch) {
      ++report.left;
      continue;
    }
    recover_stored(store, registry, hub, stored, report, *epoch);
  }
  if (report.resumed + report.finished + report.ended > 0) hub.arm_recovery_grace();
  return report;
}

namespace {

// The sweep behind forget_unlisted_tokens: kept alive by its timer's pending wait.
class TokenSweeper : public std::enable_shared_from_this<TokenSweeper> {
 public:
  TokenSweeper(boost::asio::io_context& io, boost::asio::any_io_executor worker,
               storage::MatchStore& store, uint32_t listed_seconds)
      : timer_(io),
        worker_(std::move(worker)),
        store_(store),
        listed_ms_(int64_t{listed_seconds} * 1000),
        every_(std::max<uint32_t>(listed_seconds, 10)) {}

  void run() {
    boost::asio::post(worker_, [self = shared_from_this()] { self->sweep(); });
    timer_.expires_after(every_);
    timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) self->run();
    });
  }

 private:
  void sweep() {
    try {
      store_.forget_ended_tokens(unix_now_ms() - listed_ms_);
    } catch (const std::exception& e) {
      spdlog::warn("could not forget the tokens of ended matches, next time: {}", e.what());
    }
  }

  boost::asio::steady_timer timer_;
  boost::asio::any_io_executor worker_;
  storage::MatchStore& store_;
  int64_t listed_ms_;
  std::chrono::seconds every_;
};

}  // namespace

void forget_unlisted_tokens(boost::asio::io_context& io, boost::asio::any_io_executor worker,
                            storage::MatchStore& store, uint32_t listed_seconds) {
  std::make_shared<TokenSweeper>(io, std::move(worker), store, listed_seconds)->run();
}

storage::RetentionPolicy retention_of(const Config& config) {
  storage::RetentionPolicy policy;
  if (config.retention_days > 0) policy.max_age_days = static_cast<int>(config.retention_days);
  if (config.retention_matches > 0) policy.keep_finished = config.retention_matches;
  return policy;
}

}  // namespace duelhall::server
