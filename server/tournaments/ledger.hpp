// What every format shares: the players, the games played and their results, the typed refusals,
// and the versioned text encoding a tournament is saved in and restored from.
//
// Points are kept in half-points (a win 2, a draw 1, a loss 0) so that sums stay exact. A game
// has one or more seats, seat 0 the first (it moves first); its result is the finishing place of
// each seat (1 best; equal places are a tie). A seat earns two half-points for every seat placed
// below it and one for every other seat tied with it: a two-seat win is 2, a draw 1 each, and a
// table of k seats gives its winner 2(k-1). A bye is a one-seat game worth a win (2).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace duelhall::tournaments {

using PlayerId = uint64_t;
using GameId = uint32_t;

// Every refusal a tournament can give; kOk means the call did what it says.
enum class Refusal : uint8_t {
  kOk = 0,
  kAlreadyJoined,    // add_player for an id already registered
  kFull,             // add_player past the maximum number of players
  kStarted,          // add_player after the first round was paired
  kUnknownPlayer,    // withdraw/disqualify an id that never joined
  kAlreadyLeft,      // withdraw/disqualify a player already withdrawn or disqualified
  kFinished,         // any change after the last round (or the final, or the end time)
  kUnknownMatch,     // a result for a game or match that does not exist
  kResultTwice,      // a second result for a game already decided
  kBadResult,        // places that do not fit the game's seats
  kRoundUnfinished,  // next_round while a game of the current round has no result
  kTooFewPlayers,    // next_round (or start) with fewer than two active players
  kNotStarted,       // pairing an arena before its start
  kBadEncoding,      // restore from text that is not a tournament of this format and version
};
const char* refusal_name(Refusal refusal);

struct Player {
  PlayerId id = 0;
  int32_t rating = 1500;
  bool withdrawn = false;
  bool disqualified = false;
  bool active() const { return !withdrawn && !disqualified; }
  bool operator==(const Player&) const = default;
};

// A two-seat game's result, from the first seat's side.
enum class Outcome : uint8_t { kFirstWins, kSecondWins, kDraw };

struct Game {
  GameId id = 0;
  uint32_t round = 0;              // Swiss round (1-based); arena: 0
  std::vector<PlayerId> seats;     // seat 0 first; a bye has one seat
  std::vector<uint8_t> places;     // empty until the result; one place per seat
  bool reported() const { return !places.empty(); }
  bool bye() const { return seats.size() == 1; }
  bool operator==(const Game&) const = default;
};

std::vector<uint8_t> places_of(Outcome outcome);
// Half-points the seat earned in a reported game.
int32_t half_points(const Game& game, size_t seat);
// 2 when seat beat other, 1 when tied, 0 when it lost (both seats of one reported game).
int32_t half_points_against(const Game& game, size_t seat, size_t other);
// Places are valid for a game of `seats` seats: one per seat, each in 1..seats, and a place p
// shared by t seats means no seat holds places p+1..p+t-1 (competition ranking, "1 1 3").
bool valid_places(const std::vector<uint8_t>& places, size_t seats);

// The players and games of one tournament, with each player's running total.
class Ledger {
 public:
  Player* find(PlayerId id);
  const Player* find(PlayerId id) const;
  Refusal add(const Player& player);
  // The entry and leaving rules every format shares: one entry per player, none once `closed`
  // (started or finished, as the format says), at most `max_players` (0: no limit); a leaver
  // is marked withdrawn or disqualified, once, while `finished` is false.
  Refusal join(PlayerId id, int32_t rating, bool finished, bool closed, size_t max_players);
  Refusal leave(PlayerId id, bool disqualified, bool finished);
  const std::vector<Player>& players() const { return players_; }
  const std::vector<Game>& games() const { return games_; }
  Game* game(GameId id) { return id < games_.size() ? &games_[id] : nullptr; }
  const Game* game(GameId id) const { return id < games_.size() ? &games_[id] : nullptr; }

  // Appends an unreported game (a bye is reported at once) and returns its id.
  GameId open_game(uint32_t round, std::vector<PlayerId> seats);
  // kUnknownMatch, kResultTwice, kBadResult or kOk (and the totals move).
  Refusal report(GameId id, const std::vector<uint8_t>& places);
  int32_t points(PlayerId id) const;  // half-points, kept as results arrive
  bool operator==(const Ledger& other) const {
    return players_ == other.players_ && games_ == other.games_;
  }

  // "player <id> <rating> <w|d|a>" and "game <round> <n> <seat..> <places or ->" lines.
  void write(std::ostream& out) const;
  // Reads `players` player lines then `games` game lines; false on any malformed line.
  bool read(std::istream& in, size_t players, size_t games);

 private:
  std::vector<Player> players_;
  std::vector<Game> games_;
  std::unordered_map<PlayerId, size_t> index_;
  std::unordered_map<PlayerId, int32_t> points_;
};

// Reads "<word> <value>" and checks the word; the encodings' header fields.
bool read_field(std::istream& in, const char* word, uint64_t& value);

}  // namespace duelhall::tournaments
