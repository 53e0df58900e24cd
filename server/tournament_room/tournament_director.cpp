// The director: what the room does to a tournament as time passes and results come in
// (docs/tournaments.md, "How the server runs a tournament"). Every function here runs under the
// room's mutex and leaves what touches matches and connections in `After`.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "match/match.hpp"
#include "storage/tournament_store.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {
namespace {

engine::Params params_of(const engine::RulesetInfo& info, const TournamentSettings& settings) {
  engine::Params params;
  std::string error;
  const std::map<std::string, std::string> raw(settings.params().begin(),
                                               settings.params().end());
  (void)engine::Params::resolve(info.params, raw, params, error);  // checked at creation
  return params;
}

bool has(const GameNote& game, int64_t account) {
  return std::find(game.seats.begin(), game.seats.end(), account) != game.seats.end();
}

// A player who gives no setup brings the empty one, which a ruleset may accept (its default).
std::vector<std::string> setups_or_default(const Entrant* e) {
  if (!e || e->setups.empty()) return {std::string()};
  return e->setups;
}

}  // namespace

std::optional<std::string> TournamentRoom::setups_problem(
    const Tournament& t, const std::vector<std::string>& given) const {
  const engine::RulesetInfo* info = host_.registry().find(t.settings.ruleset());
  if (!info || (!info->check_seat_option && !info->check_seat_options)) {
    if (given.empty()) return std::nullopt;
    return "this ruleset's seats take no setup";
  }
  const std::vector<std::string> setups = given.empty() ? std::vector<std::string>{""} : given;
  const engine::Params params = params_of(*info, t.settings);
  for (const std::string& setup : setups) {
    if (info->check_seat_option) {
      if (auto problem = info->check_seat_option(params, setup)) return problem;
    }
  }
  if (!info->check_seat_options || t.settings.table_seats() > 2) return std::nullopt;
  // Either seat: for each, one of the player's setups must fit it (beside an empty seat).
  for (size_t seat = 0; seat < 2; ++seat) {
    const bool fits = std::any_of(setups.begin(), setups.end(), [&](const std::string& setup) {
      std::vector<std::string> seats(2);
      seats[seat] = setup;
      return !info->check_seat_options(params, seats);
    });
    if (!fits) {
      return "no setup given fits seat " + std::to_string(seat) +
             ": give one for each side (a Light deck and a Dark deck)";
    }
  }
  return std::nullopt;
}

bool TournamentRoom::choose_setups(const Tournament& t, const std::vector<int64_t>& seats,
                                   std::vector<std::string>& setups) const {
  std::vector<std::vector<std::string>> offered;
  for (int64_t account : seats) offered.push_back(setups_or_default(t.entrant(account)));
  setups.clear();
  const engine::RulesetInfo* info = host_.registry().find(t.settings.ruleset());
  if (info && info->check_seat_options && seats.size() == 2) {
    const engine::Params params = params_of(*info, t.settings);
    for (const std::string& first : offered[0]) {
      for (const std::string& second : offered[1]) {
        if (!info->check_seat_options(params, {first, second})) {
          setups = {first, second};
          return true;
        }
      }
    }
    return false;
  }
  for (const auto& choice : offered) setups.push_back(choice.front());
  return true;
}

void TournamentRoom::step(Tournament& t, int64_t now, After& after) {
  const TournamentStatus before = t.status;
  const size_t games_before = t.games.size();
  if (t.status == TOURNAMENT_REGISTERING && now >= static_cast<int64_t>(t.settings.start_ms())) {
    begin(t, now);
  }
  if (t.status == TOURNAMENT_RUNNING) {
    end_round_at_limit(t, now, after);
    hand_out(t, now, after);
    if (t.format->over(now)) {
      t.status = TOURNAMENT_FINISHED;
      spdlog::info("tournament {} ({}) finished", t.id, t.settings.name());
    }
  }
  if (t.status != before || t.games.size() != games_before) {
    save(t);
    after.changed.push_back(t.id);
  }
}

void TournamentRoom::begin(Tournament& t, int64_t now) {
  const uint32_t fewest = std::max<uint32_t>(2, t.settings.min_players());
  // The host's bot fill: an odd count of a casual two-seat tournament gets the engine's bot.
  if (host_.config().tournament_bot_fill && !t.settings.rated() && t.settings.table_seats() <= 2 &&
      t.active_players() >= fewest && t.active_players() % 2 == 1 && !t.entrant(kBotEntrant) &&
      t.format->join(static_cast<tournaments::PlayerId>(kBotEntrant), 1500,
                     static_cast<uint64_t>(now)) == tournaments::Refusal::kOk) {
    t.entrants.push_back(Entrant{kBotEntrant, "Bot", 1500, {}});
  }
  const tournaments::Refusal refusal =
      t.active_players() < fewest ? tournaments::Refusal::kTooFewPlayers : t.format->start(now);
  if (refusal != tournaments::Refusal::kOk) {
    t.status = TOURNAMENT_CANCELLED;
    spdlog::info("tournament {} ({}) cancelled at its start: {} players", t.id,
                 t.settings.name(), t.active_players());
    return;
  }
  t.status = TOURNAMENT_RUNNING;
  t.started_ms = now;
  spdlog::info("tournament {} ({}) started with {} players", t.id, t.settings.name(),
               t.active_players());
}

void TournamentRoom::hand_out(Tournament& t, int64_t now, After& after) {
  const uint64_t clock = host_.clock_seconds(t.settings.ruleset(), t.settings.clock()).value_or(0);
  const int64_t show_up_ms =
      int64_t{1000} * std::max<int64_t>(host_.config().tournament_show_up_seconds, clock);
  // A forfeit can complete a round, and the next round's games are handed out in the same step.
  for (int pass = 0; pass < 4; ++pass) {
    bool decided = false;
    for (const tournaments::PendingGame& pending : t.format->advance(static_cast<uint64_t>(now))) {
      if (!t.note(pending.key)) {
        t.games.push_back(GameNote{pending.key, pending.round,
                                   {pending.seats.begin(), pending.seats.end()}, 0, now, {}, false});
      }
    }
    if (t.format->round() != t.round_seen) {
      t.round_seen = t.format->round();
      t.round_started_ms = now;
    }
    for (GameNote& game : t.games) {
      if (game.done() || game.match_id != 0 || making_.count({t.id, game.key})) continue;
      // The match seats the humans first: a bot takes the last seat (CreateMatch.bot_seats).
      std::vector<int64_t> order = game.seats;
      game.reversed = order.size() == 2 && order[0] == kBotEntrant;
      if (game.reversed) std::swap(order[0], order[1]);
      ToMake job;
      job.tournament = t.id;
      job.key = game.key;
      job.round = game.round;
      job.name = t.settings.name();
      bool all_here = true;
      for (int64_t account : order) {
        job.names.push_back(name_of(t, account));
        if (account == kBotEntrant) {
          ++job.bot_seats;
          continue;
        }
        auto [player, peer] = host_.connected(account);
        all_here = all_here && player && peer;
        job.players.push_back(std::move(player));
        job.peers.push_back(std::move(peer));
      }
      if (!all_here) {
        if (now - game.made_ms >= show_up_ms) {
          forfeit_absent(t, game, after);
          decided = true;
        }
        continue;
      }
      if (!choose_setups(t, order, job.setups)) {
        spdlog::warn("tournament {}: game {} has no setups that fit; drawn", t.id, game.key);
        record(t, game, std::vector<uint8_t>(game.seats.size(), 1), true, after);
        decided = true;
        continue;
      }
      job.setups.resize(job.players.size());  // the bot's seat takes the ruleset's default
      MatchSettings& settings = job.settings;
      settings.set_ruleset(t.settings.ruleset());
      *settings.mutable_params() = t.settings.params();
      settings.set_seats(static_cast<uint32_t>(game.seats.size()));
      settings.set_spectators_allowed(true);
      settings.set_clock_seconds(static_cast<uint32_t>(clock));
      settings.set_rated(t.settings.rated());
      making_.insert({t.id, game.key});
      after.make.push_back(std::move(job));
    }
    if (!decided) break;
  }
}

std::vector<uint8_t> TournamentRoom::places_without(const GameNote& game, int64_t absent) const {
  // Everyone else ties first; the one who is not there comes after them.
  std::vector<uint8_t> places(game.seats.size(), 1);
  for (size_t s = 0; s < game.seats.size(); ++s) {
    if (game.seats[s] == absent) places[s] = static_cast<uint8_t>(game.seats.size());
  }
  return places;
}

void TournamentRoom::forfeit_absent(Tournament& t, GameNote& game, After& after) {
  std::vector<bool> here;
  size_t present = 0;
  for (int64_t account : game.seats) {
    here.push_back(account == kBotEntrant || host_.connected(account).first != nullptr);
    present += here.back() ? 1 : 0;
  }
  // Those who came tie first and those who did not tie after them; nobody came: a draw.
  std::vector<uint8_t> places(game.seats.size(), 1);
  if (present != 0) {
    for (size_t s = 0; s < here.size(); ++s) {
      if (!here[s]) places[s] = static_cast<uint8_t>(present + 1);
    }
  }
  spdlog::info("tournament {}: game {} decided by absence ({} of {} present)", t.id, game.key,
               present, game.seats.size());
  record(t, game, std::move(places), true, after);
}

void TournamentRoom::record(Tournament& t, GameNote& game, std::vector<uint8_t> places,
                            bool forfeit, After& after) {
  const tournaments::Refusal refusal = t.format->record(game.key, places);
  if (refusal != tournaments::Refusal::kOk) {
    // The format decided it already (a knockout walkover): the note only stops waiting.
    spdlog::info("tournament {}: game {} was decided already ({})", t.id, game.key,
                 tournaments::refusal_name(refusal));
    forfeit = true;
  }
  game.places = std::move(places);
  game.forfeit = forfeit;
  if (game.match_id != 0) {
    if (forfeit) after.abort.push_back(game.match_id);
    by_match_.erase(game.match_id);
  }
  save(t);
  after.changed.push_back(t.id);
}

void TournamentRoom::end_round_at_limit(Tournament& t, int64_t now, After& after) {
  if (t.format->kind() != tournaments::FormatKind::kSwiss || t.round_seen == 0) return;
  const int64_t limit_ms = int64_t{60'000} * t.settings.round_minutes();
  if (limit_ms == 0 || now - t.round_started_ms < limit_ms) return;
  for (GameNote& game : t.games) {
    if (game.done() || game.round != t.round_seen) continue;
    spdlog::info("tournament {}: game {} drawn at the round's limit", t.id, game.key);
    record(t, game, std::vector<uint8_t>(game.seats.size(), 1), true, after);
  }
}

tournaments::Refusal TournamentRoom::leave(Tournament& t, int64_t account, bool disqualified,
                                           int64_t now, After& after) {
  if (!t.entrant(account)) return tournaments::Refusal::kUnknownPlayer;
  const tournaments::Refusal refusal =
      t.format->leave(account, disqualified, static_cast<uint64_t>(now));
  if (refusal != tournaments::Refusal::kOk) return refusal;
  for (GameNote& game : t.games) {
    if (!game.done() && has(game, account)) {
      record(t, game, places_without(game, account), true, after);
    }
  }
  step(t, now, after);
  save(t);
  after.changed.push_back(t.id);
  return refusal;
}

void TournamentRoom::save(Tournament& t) { dirty_.insert(t.id); }

void TournamentRoom::flush_saves() {
  storage::TournamentStore* store = host_.tournament_store();
  if (!store) {
    dirty_.clear();
    return;
  }
  using namespace std::chrono;
  const int64_t now = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  for (auto it = dirty_.begin(); it != dirty_.end();) {
    Tournament* t = find(*it);
    if (!t) {
      it = dirty_.erase(it);
      continue;
    }
    const storage::TournamentRecord record{static_cast<int64_t>(t->id),
                                           t->settings.name(),
                                           t->settings.ruleset(),
                                           static_cast<int32_t>(t->status),
                                           static_cast<int64_t>(t->settings.start_ms()),
                                           now,
                                           encode(*t)};
    try {
      if (!store->save_tournament(record)) spdlog::error("tournament {} is not in the store", t->id);
      it = dirty_.erase(it);
    } catch (const std::exception& e) {
      // Kept in memory and saved again at the next tick: a store outage stops no tournament.
      spdlog::warn("tournament {} could not be saved (tried again each second): {}", t->id,
                   e.what());
      ++it;
    }
  }
}

}  // namespace duelhall::server
