#include "tournaments/ledger.hpp"

#include <algorithm>
#include <sstream>

namespace duelhall::tournaments {

const char* refusal_name(Refusal refusal) {
  switch (refusal) {
    case Refusal::kOk: return "ok";
    case Refusal::kAlreadyJoined: return "already joined";
    case Refusal::kFull: return "full";
    case Refusal::kStarted: return "started";
    case Refusal::kUnknownPlayer: return "unknown player";
    case Refusal::kAlreadyLeft: return "already left";
    case Refusal::kFinished: return "finished";
    case Refusal::kUnknownMatch: return "unknown match";
    case Refusal::kResultTwice: return "result twice";
    case Refusal::kBadResult: return "bad result";
    case Refusal::kRoundUnfinished: return "round unfinished";
    case Refusal::kTooFewPlayers: return "too few players";
    case Refusal::kNotStarted: return "not started";
    case Refusal::kBadEncoding: return "bad encoding";
  }
  return "?";
}

std::vector<uint8_t> places_of(Outcome outcome) {
  switch (outcome) {
    case Outcome::kFirstWins: return {1, 2};
    case Outcome::kSecondWins: return {2, 1};
    case Outcome::kDraw: return {1, 1};
  }
  return {};
}

int32_t half_points(const Game& game, size_t seat) {
  if (!game.reported()) return 0;
  if (game.bye()) return 2;
  int32_t points = 0;
  for (size_t other = 0; other < game.seats.size(); ++other) {
    if (other != seat) points += half_points_against(game, seat, other);
  }
  return points;
}

int32_t half_points_against(const Game& game, size_t seat, size_t other) {
  if (game.places[seat] < game.places[other]) return 2;
  return game.places[seat] == game.places[other] ? 1 : 0;
}

bool valid_places(const std::vector<uint8_t>& places, size_t seats) {
  if (places.size() != seats || seats == 0) return false;
  for (uint8_t place : places) {
    if (place < 1 || place > seats) return false;
    // Competition ranking: the place equals one plus the number of seats strictly ahead.
    size_t ahead = static_cast<size_t>(std::count_if(
        places.begin(), places.end(), [place](uint8_t other) { return other < place; }));
    if (place != ahead + 1) return false;
  }
  return true;
}

Player* Ledger::find(PlayerId id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &players_[it->second];
}

const Player* Ledger::find(PlayerId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &players_[it->second];
}

Refusal Ledger::add(const Player& player) {
  if (index_.count(player.id)) return Refusal::kAlreadyJoined;
  index_[player.id] = players_.size();
  players_.push_back(player);
  points_[player.id] = 0;
  return Refusal::kOk;
}

Refusal Ledger::join(PlayerId id, int32_t rating, bool finished, bool closed,
                     size_t max_players) {
  if (find(id)) return Refusal::kAlreadyJoined;
  if (finished) return Refusal::kFinished;
  if (closed) return Refusal::kStarted;
  if (max_players != 0 && players_.size() >= max_players) return Refusal::kFull;
  return add(Player{id, rating, false, false});
}

Refusal Ledger::leave(PlayerId id, bool disqualified, bool finished) {
  Player* player = find(id);
  if (!player) return Refusal::kUnknownPlayer;
  if (finished) return Refusal::kFinished;
  if (!player->active()) return Refusal::kAlreadyLeft;
  (disqualified ? player->disqualified : player->withdrawn) = true;
  return Refusal::kOk;
}

GameId Ledger::open_game(uint32_t round, std::vector<PlayerId> seats) {
  GameId id = static_cast<GameId>(games_.size());
  games_.push_back(Game{id, round, std::move(seats), {}});
  if (games_.back().bye()) (void)report(id, {1});
  return id;
}

Refusal Ledger::report(GameId id, const std::vector<uint8_t>& places) {
  Game* target = game(id);
  if (!target) return Refusal::kUnknownMatch;
  if (target->reported()) return Refusal::kResultTwice;
  if (!valid_places(places, target->seats.size())) return Refusal::kBadResult;
  target->places = places;
  for (size_t seat = 0; seat < target->seats.size(); ++seat) {
    points_[target->seats[seat]] += half_points(*target, seat);
  }
  return Refusal::kOk;
}

int32_t Ledger::points(PlayerId id) const {
  auto it = points_.find(id);
  return it == points_.end() ? 0 : it->second;
}

void Ledger::write(std::ostream& out) const {
  for (const Player& player : players_) {
    char state = player.disqualified ? 'd' : (player.withdrawn ? 'w' : 'a');
    out << "player " << player.id << ' ' << player.rating << ' ' << state << '\n';
  }
  for (const Game& game : games_) {
    out << "game " << game.round << ' ' << game.seats.size();
    for (PlayerId seat : game.seats) out << ' ' << seat;
    if (!game.reported()) {
      out << " -";
    } else {
      for (uint8_t place : game.places) out << ' ' << int{place};
    }
    out << '\n';
  }
}

bool Ledger::read(std::istream& in, size_t players, size_t games) {
  std::string word;
  for (size_t i = 0; i < players; ++i) {
    Player player;
    char state = 0;
    if (!(in >> word >> player.id >> player.rating >> state) || word != "player") return false;
    if (state != 'a' && state != 'w' && state != 'd') return false;
    player.withdrawn = state == 'w';
    player.disqualified = state == 'd';
    if (add(player) != Refusal::kOk) return false;
  }
  for (size_t i = 0; i < games; ++i) {
    uint32_t round = 0;
    size_t seat_count = 0;
    if (!(in >> word >> round >> seat_count) || word != "game") return false;
    if (seat_count == 0 || seat_count > 64) return false;
    std::vector<PlayerId> seats(seat_count);
    for (PlayerId& seat : seats) {
      if (!(in >> seat) || !find(seat)) return false;
    }
    GameId id = static_cast<GameId>(games_.size());
    games_.push_back(Game{id, round, std::move(seats), {}});
    std::string first;
    if (!(in >> first)) return false;
    if (first == "-") continue;
    std::vector<uint8_t> places;
    std::istringstream first_place(first);
    int place = 0;
    if (!(first_place >> place)) return false;
    places.push_back(static_cast<uint8_t>(place));
    for (size_t seat = 1; seat < seat_count; ++seat) {
      if (!(in >> place) || place < 0 || place > 255) return false;
      places.push_back(static_cast<uint8_t>(place));
    }
    if (report(id, places) != Refusal::kOk) return false;
  }
  return true;
}

bool read_field(std::istream& in, const char* word, uint64_t& value) {
  std::string read_word;
  return static_cast<bool>(in >> read_word >> value) && read_word == word;
}

}  // namespace duelhall::tournaments
