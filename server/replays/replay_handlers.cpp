// Replays, export and import: the handlers over the match store (replay_handlers.hpp).
#include <chrono>

#include "core/version.hpp"
#include "fairness/record_format.hpp"
#include "fairness/verify.hpp"
#include "replays/replay_export.hpp"
#include "replays/replay_handlers.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {
namespace {

constexpr uint32_t kDefaultReplays = 50;
constexpr uint32_t kMaxReplays = 200;
constexpr int kOmniscientSeat = -2;

void fill_summary(const storage::MatchSummary& from, ReplaySummary& to) {
  to.set_match_id(static_cast<uint64_t>(from.id));
  to.set_ruleset(from.ruleset);
  for (const auto& name : from.names) to.add_names(name);
  to.set_aborted(from.status == storage::MatchStatus::kAbandoned);
  to.set_engine_version(from.engine_version);
  to.set_seed_commitment(from.commitment);
  if (from.revealed_seed) to.set_seed(engine::seed_to_hex(*from.revealed_seed));
  if (from.outcome) {
    for (int s = 0; s < from.seats; ++s) {
      if ((from.outcome->winners >> s) & 1u) to.add_winners(static_cast<uint32_t>(s));
    }
    for (int32_t score : from.outcome->scores) to.add_scores(score);
    to.set_reason(from.outcome->reason);
  }
  to.set_created_ms(static_cast<uint64_t>(from.created_ms));
  to.set_ended_ms(static_cast<uint64_t>(from.ended_ms.value_or(0)));
  to.set_steps(static_cast<uint32_t>(from.steps));
}

// Loads an ended match, or says why not.
Handled load_ended(ReplayHost& hub, uint64_t id, std::optional<storage::StoredMatch>& stored) {
  storage::MatchStore* store = hub.store();
  if (!store) return Handled::fail(STORAGE_DISABLED, "this server stores no matches");
  stored = store->load_match(static_cast<storage::MatchId>(id));
  // A match this node plays whose first row the store has not written yet is still a match.
  if (!stored && !hub.find_match(id)) return Handled::fail(UNKNOWN_MATCH, "no stored match with that id");
  if (!stored || stored->summary.status == storage::MatchStatus::kLive) {
    return Handled::fail(MATCH_NOT_ENDED,
                         "the match is being played, or its end is still being stored: replays "
                         "open once the end is stored");
  }
  return Handled::ok();
}

}  // namespace

Handled handle_list_replays(ReplayHost& hub, Call& call, const ListReplays& request) {
  storage::MatchStore* store = hub.store();
  if (!store) return Handled::fail(STORAGE_DISABLED, "this server stores no matches");
  storage::ReplayQuery query;
  query.ruleset = request.ruleset();
  query.player = request.player();
  query.limit = request.limit() == 0 ? kDefaultReplays : std::min(request.limit(), kMaxReplays);
  if (request.before() != 0) query.before = static_cast<storage::MatchId>(request.before());
  ReplayList* list = call.reply.mutable_replays();
  for (const auto& summary : store->list_ended(query)) fill_summary(summary, *list->add_replays());
  return Handled::ok();
}

Handled handle_replay_view(ReplayHost& hub, Call& call, const ReplayView& request) {
  std::optional<storage::StoredMatch> stored;
  if (Handled h = load_ended(hub, request.match_id(), stored); h.code != OK) return h;
  const int seat = request.seat();
  if (seat < kOmniscientSeat || seat >= stored->summary.seats) {
    return Handled::fail(NO_SUCH_SEAT, "a seat of the match, -1 (public) or -2 (omniscient)");
  }
  ClientState& state = call.state;
  if (!state.replay || state.replay_match != request.match_id()) {
    std::string error;
    auto cursor =
        storage::ReplayCursor::open(hub.registry(), stored->config, stored->steps, true, error);
    if (!cursor) return Handled::fail(INTERNAL_ERROR, "the match does not replay: " + error);
    state.replay = std::move(cursor);
    state.replay_match = request.match_id();
  }
  const size_t position = state.replay->seek(request.position());
  const engine::Viewer viewer = seat == kOmniscientSeat ? engine::Viewer::omniscient()
                                : seat < 0              ? engine::Viewer::spectator()
                                                        : engine::Viewer::of_seat(seat);
  auto view = state.replay->view(viewer);
  auto events = state.replay->events(viewer);
  if (!view || !events) return Handled::fail(NO_SUCH_SEAT, "that viewer may not see this replay");
  ReplayFrame* frame = call.reply.mutable_replay_frame();
  frame->set_match_id(request.match_id());
  frame->set_seat(seat);
  frame->set_position(static_cast<uint32_t>(position));
  frame->set_length(static_cast<uint32_t>(state.replay->length()));
  frame->set_view(*view);
  for (auto& text : *events) frame->add_events(std::move(text));
  fill_summary(stored->summary, *frame->mutable_summary());
  for (const auto& [name, value] : stored->config.params.values()) {
    (*frame->mutable_params())[name] = value;
  }
  for (const std::string& setup : stored->config.seat_options) frame->add_setups(setup);
  return Handled::ok();
}

Handled handle_export_match(ReplayHost& hub, Call& call, const ExportMatch& request) {
  ExportAnswer answer = export_match_record(hub, request.match_id());
  if (answer.code != OK) return Handled::fail(answer.code, std::move(answer.reason));
  call.reply.mutable_exported()->set_match_id(request.match_id());
  call.reply.mutable_exported()->set_record(std::move(answer.record));
  return Handled::ok();
}

Handled handle_import_match(ReplayHost& hub, Call& call, const ImportMatch& request) {
  storage::MatchStore* store = hub.store();
  if (!store) return Handled::fail(STORAGE_DISABLED, "this server stores no matches");
  const auto verdict =
      fairness::verify_export(hub.registry(), request.record(), engine::kEngineVersion);
  if (!verdict.ok()) {
    return Handled::fail(BAD_RECORD,
                         std::string(fairness::to_string(verdict.failure)) + ": " + verdict.reason);
  }
  std::string error;
  auto record = fairness::read_record(request.record(), error);
  if (!record) return Handled::fail(BAD_RECORD, error);
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  const auto id =
      store->import_record(*record, now, static_cast<storage::MatchId>(hub.allocate_match_id()));
  call.reply.mutable_imported()->set_match_id(static_cast<uint64_t>(id));
  return Handled::ok();
}

}  // namespace duelhall::server
