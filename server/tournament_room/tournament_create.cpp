// Creating a tournament (docs/tournaments.md, "How the server runs a tournament"): the settings
// checked and completed with the host's defaults, then the tournament stored and opened.
#include <spdlog/spdlog.h>

#include <map>

#include "storage/tournament_store.hpp"
#include "cluster/cluster_node.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxNameBytes = 80;
constexpr int64_t kFarthestStartMs = int64_t{90} * 24 * 3600 * 1000;

}  // namespace

Handled TournamentRoom::check_settings(TournamentSettings& s, int64_t now) const {
  if (s.name().empty()) return Handled::fail(BAD_PARAMETERS, "a tournament needs a name");
  if (s.name().size() > kMaxNameBytes) return Handled::fail(FIELD_TOO_LONG, "the name is too long");
  const engine::RulesetInfo* info = host_.registry().find(s.ruleset());
  if (!info) return Handled::fail(UNKNOWN_RULESET, "no such ruleset");
  if (!TournamentFormat_IsValid(s.format())) return Handled::fail(BAD_PARAMETERS, "no such format");
  if (s.start_ms() + 1000 < static_cast<uint64_t>(now)) {
    return Handled::fail(START_IN_PAST, "the start time has passed");
  }
  if (s.start_ms() > static_cast<uint64_t>(now + kFarthestStartMs)) {
    return Handled::fail(START_IN_PAST, "the start is more than 90 days away");
  }
  const Config& config = host_.config();
  if (s.max_players() == 0) s.set_max_players(config.tournament_max_players);
  if (s.min_players() == 0) s.set_min_players(2);
  if (s.max_players() > config.tournament_max_players || s.min_players() < 2 ||
      s.min_players() > s.max_players()) {
    return Handled::fail(BAD_PARAMETERS, "players: at least 2, at most " +
                                             std::to_string(config.tournament_max_players) +
                                             ", the minimum not above the maximum");
  }
  if (s.rounds() == 0) s.set_rounds(5);
  if (s.duration_minutes() == 0) s.set_duration_minutes(30);
  if (s.best_of() == 0) s.set_best_of(1);
  if (s.round_minutes() == 0) s.set_round_minutes(config.tournament_round_minutes);
  if (s.rounds() > 30 || s.duration_minutes() > 24 * 60 || s.round_minutes() > 24 * 60 ||
      (s.best_of() != 1 && s.best_of() != 3)) {
    return Handled::fail(BAD_PARAMETERS,
                         "rounds at most 30, an arena at most a day, best of 1 or 3");
  }
  const uint32_t seats = s.table_seats() > 2 ? s.table_seats() : 2;
  s.set_table_seats(seats);
  if (static_cast<int>(seats) < info->min_seats || static_cast<int>(seats) > info->max_seats ||
      (seats > 2 && s.format() != FORMAT_SWISS)) {
    return Handled::fail(BAD_PARAMETERS, "this ruleset and format do not seat " +
                                             std::to_string(seats) + " at a table");
  }
  if (s.rated() && seats != 2) {
    return Handled::fail(BAD_PARAMETERS, "a rated tournament has two seats a game");
  }
  if (s.clock().empty()) {
    s.set_clock("rapid");
  }
  if (!host_.clock_seconds(s.ruleset(), s.clock())) {
    return Handled::fail(BAD_PARAMETERS, "this ruleset has no clock named " + s.clock());
  }
  engine::Params params;
  std::string error;
  const std::map<std::string, std::string> raw(s.params().begin(), s.params().end());
  if (!engine::Params::resolve(info->params, raw, params, error)) {
    return Handled::fail(BAD_PARAMETERS, error);
  }
  return Handled::ok();
}

Handled TournamentRoom::create(Call& call, const CreateTournament& request) {
  const std::shared_ptr<Player>& player = call.state.player;
  if (!player || !player->registered()) {
    return Handled::fail(SIGN_IN_REQUIRED, "sign in to create a tournament");
  }
  if (!host_.config().anyone_creates_tournaments && !host_.directs_tournaments(call.state)) {
    return Handled::fail(NOT_MODERATOR, "on this server moderators create tournaments");
  }
  const int64_t now = now_ms();
  Tournament t;
  t.settings = request.settings();
  if (Handled bad = check_settings(t.settings, now); bad.code != OK) return bad;
  t.created_by = player->name();
  t.format = tournaments::make_format(format_config(t.settings));
  std::lock_guard lock(mutex_);
  if (open_.size() >= host_.config().tournament_max_open) {
    return Handled::fail(LIMIT_REACHED, "this server runs as many tournaments as it allows");
  }
  if (storage::TournamentStore* store = host_.tournament_store()) {
    storage::TournamentRecord record{0,         t.settings.name(),
                                     t.settings.ruleset(), TOURNAMENT_REGISTERING,
                                     static_cast<int64_t>(t.settings.start_ms()),
                                     now,       encode(t)};
    try {
      t.id = static_cast<uint64_t>(store->add_tournament(record));
    } catch (const std::exception& e) {
      spdlog::warn("a tournament could not be stored: {}", e.what());
      return Handled::retry(STORAGE_UNAVAILABLE, "the store cannot take the tournament now", 1000);
    }
  } else {
    t.id = next_memory_id_++;
  }
  spdlog::info("tournament {} ({}, {} {}) created by {}", t.id, t.settings.name(),
               t.settings.ruleset(), tournaments::format_name(t.format->kind()), t.created_by);
  fill_detail(t, player->account().id, *call.reply.mutable_tournament());
  // In a cluster the node that creates a tournament directs it: its next tick takes the lease.
  if (host_.cluster()) directors_[t.id] = host_.cluster()->options().node;
  open_.emplace(t.id, std::move(t));
  return Handled::ok();
}

}  // namespace duelhall::server
