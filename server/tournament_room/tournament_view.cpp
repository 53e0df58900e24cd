// How a tournament is shown: its summary in a listing, and its detail (standings, games) to a
// viewer. Only public facts: names, ratings, results, match ids; never a player's setups.
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kArenaFinishedShown = 20;

}  // namespace

std::string TournamentRoom::name_of(const Tournament& t, int64_t account) const {
  const Entrant* e = t.entrant(account);
  return e ? e->name : "?";
}

void TournamentRoom::fill_summary(const Tournament& t, TournamentSummary& out) const {
  out.set_id(t.id);
  *out.mutable_settings() = t.settings;
  out.set_status(t.status);
  out.set_players(t.active_players());
  out.set_round(t.format->round());
  out.set_created_by(t.created_by);
  if (t.format->kind() == tournaments::FormatKind::kArena && t.started_ms != 0) {
    out.set_ends_ms(static_cast<uint64_t>(t.started_ms) +
                    uint64_t{t.settings.duration_minutes()} * 60'000);
  }
}

void TournamentRoom::fill_detail(const Tournament& t, int64_t viewer, TournamentDetail& out) const {
  fill_summary(t, *out.mutable_summary());
  for (const tournaments::StandingRow& row : t.format->standings()) {
    TournamentStanding* s = out.add_standings();
    s->set_rank(row.rank);
    s->set_name(name_of(t, static_cast<int64_t>(row.id)));
    s->set_rating(row.rating);
    s->set_points(row.points);
    s->set_tiebreak1(row.tiebreak1);
    s->set_tiebreak2(row.tiebreak2);
    s->set_games(row.games);
    s->set_wins(row.wins);
    s->set_draws(row.draws);
    s->set_losses(row.losses);
    s->set_left(row.left);
  }
  // Which games: a Swiss round's, the arena's running ones and its last finished, every
  // knockout game.
  std::vector<const GameNote*> shown;
  const tournaments::FormatKind kind = t.format->kind();
  size_t arena_finished = 0;
  for (auto it = t.games.rbegin(); it != t.games.rend(); ++it) {
    const GameNote& g = *it;
    if (kind == tournaments::FormatKind::kSwiss && g.round != t.format->round()) continue;
    if (kind == tournaments::FormatKind::kArena && g.done() &&
        arena_finished++ >= kArenaFinishedShown) {
      continue;
    }
    shown.push_back(&g);
  }
  for (auto it = shown.rbegin(); it != shown.rend(); ++it) {
    const GameNote& g = **it;
    TournamentGame* game = out.add_games();
    game->set_round(g.round);
    for (int64_t account : g.seats) game->add_seats(name_of(t, account));
    game->set_match_id(g.match_id);
    for (uint8_t place : g.places) game->add_places(place);
    game->set_forfeit(g.forfeit);
  }
  // A Swiss bye is a ledger game of one seat the room never hands out: shown with the round.
  if (kind == tournaments::FormatKind::kSwiss) {
    for (const tournaments::Game& g : t.format->ledger().games()) {
      if (!g.bye() || g.round != t.format->round()) continue;
      TournamentGame* game = out.add_games();
      game->set_round(g.round);
      game->add_seats(name_of(t, static_cast<int64_t>(g.seats.front())));
      game->add_places(1);
      game->set_forfeit(true);
    }
  }
  const tournaments::Player* player =
      viewer != 0 ? t.format->ledger().find(static_cast<tournaments::PlayerId>(viewer)) : nullptr;
  out.set_registered(player && player->active());
}

}  // namespace duelhall::server
