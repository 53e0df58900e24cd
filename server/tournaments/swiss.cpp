#include "tournaments/swiss.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <unordered_map>

#include "tournaments/swiss_tables.hpp"

namespace duelhall::tournaments {

Refusal SwissTournament::add_player(PlayerId id, int32_t rating) {
  return ledger_.join(id, rating, finished(), started(), config_.max_players);
}

Refusal SwissTournament::withdraw(PlayerId id) { return leave(id, false); }
Refusal SwissTournament::disqualify(PlayerId id) { return leave(id, true); }

Refusal SwissTournament::leave(PlayerId id, bool disqualified) {
  return ledger_.leave(id, disqualified, finished());
}

bool SwissTournament::round_complete() const {
  return std::all_of(ledger_.games().begin(), ledger_.games().end(),
                     [](const Game& game) { return game.reported(); });
}

bool SwissTournament::finished() const { return round_ >= config_.rounds && round_complete(); }

std::vector<GameId> SwissTournament::current_games() const {
  std::vector<GameId> games;
  for (const Game& game : ledger_.games()) {
    if (game.round == round_ && round_ > 0) games.push_back(game.id);
  }
  return games;
}

std::vector<SwissEntrant> SwissTournament::entrants() const {
  std::unordered_map<PlayerId, SwissEntrant> by_id;
  for (const Player& player : ledger_.players()) {
    if (!player.active()) continue;
    by_id[player.id] = SwissEntrant{player.id, ledger_.points(player.id), player.rating};
  }
  for (const Game& game : ledger_.games()) {
    for (size_t seat = 0; seat < game.seats.size(); ++seat) {
      auto it = by_id.find(game.seats[seat]);
      if (it == by_id.end()) continue;
      SwissEntrant& entrant = it->second;
      if (game.bye()) {
        entrant.had_bye = true;
        continue;
      }
      entrant.seat_balance += seat == 0 ? 1 : -1;
      entrant.last_seat = seat == 0 ? 1 : 2;
    }
  }
  std::vector<SwissEntrant> list;
  for (const Player& player : ledger_.players()) {  // registration order: deterministic
    if (player.active()) list.push_back(by_id.at(player.id));
  }
  return list;
}

Refusal SwissTournament::next_round(std::vector<GameId>* games) {
  if (finished()) return Refusal::kFinished;
  if (!round_complete()) return Refusal::kRoundUnfinished;
  std::vector<SwissEntrant> list = entrants();
  if (list.size() < 2 || (round_ == 0 && list.size() < config_.min_players)) {
    return Refusal::kTooFewPlayers;
  }
  ++round_;
  auto open = [&](std::vector<PlayerId> seats) {
    GameId id = ledger_.open_game(round_, std::move(seats));
    if (games) games->push_back(id);
  };
  if (config_.table_seats > 2) {
    std::unordered_map<PlayerId, uint32_t> first_seats;
    for (const Game& game : ledger_.games()) {
      if (!game.bye()) ++first_seats[game.seats[0]];
    }
    for (auto& table : form_tables(std::move(list), config_.table_seats, first_seats)) {
      open(std::move(table));
    }
    return Refusal::kOk;
  }
  std::set<std::pair<PlayerId, PlayerId>> met;
  for (const Game& game : ledger_.games()) {
    if (game.seats.size() == 2) met.insert(std::minmax(game.seats[0], game.seats[1]));
  }
  last_pairing_ = pair_swiss_round(std::move(list), [&](PlayerId a, PlayerId b) {
    return met.count(std::minmax(a, b)) > 0;
  });
  for (const auto& [first, second] : last_pairing_.boards) open({first, second});
  if (last_pairing_.bye) open({*last_pairing_.bye});
  return Refusal::kOk;
}

Refusal SwissTournament::record_result(GameId id, Outcome outcome) {
  const Game* game = ledger_.game(id);
  if (!game) return Refusal::kUnknownMatch;
  if (game->seats.size() != 2 && !game->reported()) return Refusal::kBadResult;
  return record_places(id, places_of(outcome));
}

Refusal SwissTournament::record_places(GameId id, const std::vector<uint8_t>& places) {
  const Game* game = ledger_.game(id);
  if (!game) return Refusal::kUnknownMatch;
  if (game->reported()) return Refusal::kResultTwice;
  if (game->round != round_) return Refusal::kUnknownMatch;
  return ledger_.report(id, places);
}

std::string SwissTournament::serialize() const {
  std::ostringstream out;
  out << "duelhall-tournament swiss 2\n"
      << "rounds " << config_.rounds << "\nmax_players " << config_.max_players
      << "\nmin_players " << config_.min_players
      << "\ntable_seats " << config_.table_seats << "\nround " << round_ << "\nplayers "
      << ledger_.players().size() << "\ngames " << ledger_.games().size() << '\n';
  ledger_.write(out);
  out << "end\n";
  return out.str();
}

Refusal SwissTournament::restore(const std::string& text, SwissTournament& out) {
  std::istringstream in(text);
  std::string magic, format, end;
  uint64_t version = 0, rounds = 0, max_players = 0, min_players = 0, seats = 0, round = 0,
           players = 0, games = 0;
  if (!(in >> magic >> format >> version) || magic != "duelhall-tournament" ||
      format != "swiss" || (version != 1 && version != 2)) {
    return Refusal::kBadEncoding;
  }
  // Version 1 had no minimum: it reads as 0.
  if (!read_field(in, "rounds", rounds) || !read_field(in, "max_players", max_players) ||
      (version >= 2 && !read_field(in, "min_players", min_players)) ||
      !read_field(in, "table_seats", seats) || !read_field(in, "round", round) ||
      !read_field(in, "players", players) || !read_field(in, "games", games)) {
    return Refusal::kBadEncoding;
  }
  if (seats < 2 || seats > 6 || round > rounds || rounds > 1000 || players > 1000000 ||
      games > 100000000 || min_players > 1000000) {
    return Refusal::kBadEncoding;
  }
  SwissTournament restored(SwissConfig{static_cast<uint32_t>(rounds),
                                       static_cast<uint32_t>(max_players),
                                       static_cast<uint32_t>(seats),
                                       static_cast<uint32_t>(min_players)});
  restored.round_ = static_cast<uint32_t>(round);
  if (!restored.ledger_.read(in, players, games) || !(in >> end) || end != "end") {
    return Refusal::kBadEncoding;
  }
  for (const Game& game : restored.ledger_.games()) {
    if (game.round > round || game.round == 0) return Refusal::kBadEncoding;
  }
  out = std::move(restored);
  return Refusal::kOk;
}

}  // namespace duelhall::tournaments
