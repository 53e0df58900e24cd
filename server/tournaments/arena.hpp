// An arena: a fixed duration in which players play as many games as they can.
//
// Pairing: a player who finishes a game goes back to the waiting pool, and pair_waiting() (the
// director calls it after every result, arrival and departure, and at retry_at_ms() when that is
// set) pairs the pool at once: taking the waiting players from the top (points, then rating, then
// id), each is given the waiting player closest to them, the distance being 100 x the points
// difference plus the rating difference, never their last opponent while anyone else is free. A
// player whose only free partner is their last opponent waits for the next finisher rather than
// replay them at once (two players finish together and would otherwise meet again and again:
// Lichess's arenas likewise hold finishers back a few seconds and avoid the last opponent); the
// rematch is allowed once either of the two has waited config.rematch_wait_ms, or at once when only
// two active players are left. A lone player waits for the next to finish. The first seat goes to
// whoever has had it less, then to the higher-ranked. The wait is counted from the first
// pair_waiting() that saw the player waiting; it is not saved, so after a restore it starts again.
// Points: win 2, draw 1, loss 0; after two wins in a row a player is "on fire" and every further
// win counts 4, until a game that is not a win (a draw then counts 1 and ends the streak).
// Ranking: points, then performance (mean opponent rating + 500 x (wins - losses) / games, an
// integer; 0 before any game), then rating, then id. The end: no game is paired at or after
// start + duration; games already running still get their result, and it counts.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tournaments/ledger.hpp"

namespace duelhall::tournaments {

struct ArenaConfig {
  uint64_t duration_ms = 30 * 60 * 1000;
  uint32_t max_players = 0;  // 0: no limit
  // How long two players who just met wait for someone else before meeting again.
  uint64_t rematch_wait_ms = 15 * 1000;
  // Fewest registered players to start with (0: none); fewer at the start is kTooFewPlayers,
  // and the director cancels or postpones.
  uint32_t min_players = 0;
  bool operator==(const ArenaConfig&) const = default;
};

struct ArenaStanding {
  PlayerId id = 0;
  int32_t rating = 0;
  int32_t points = 0;
  int32_t performance = 0;
  uint32_t games = 0, wins = 0, draws = 0, losses = 0;
  uint32_t streak = 0;  // wins in a row now
  bool operator==(const ArenaStanding&) const = default;
};

class ArenaTournament {
 public:
  explicit ArenaTournament(ArenaConfig config = {}) : config_(config) {}

  // Players may join until the end (Lichess's arenas allow late joiners).
  Refusal add_player(PlayerId id, int32_t rating, uint64_t now_ms);
  Refusal withdraw(PlayerId id, uint64_t now_ms);
  Refusal disqualify(PlayerId id, uint64_t now_ms);
  Refusal start(uint64_t now_ms);
  // Pairs the waiting pool; new game ids in `games` when given.
  Refusal pair_waiting(uint64_t now_ms, std::vector<GameId>* games = nullptr);
  // When the last pair_waiting() held back a rematch: the time its wait ends, at which the
  // director should call pair_waiting() again if no result or arrival came first.
  std::optional<uint64_t> retry_at_ms() const { return retry_at_ms_; }
  Refusal record_result(GameId game, Outcome outcome);

  bool started() const { return started_; }
  bool finished(uint64_t now_ms) const;
  // When pairing stops (meaningful once started).
  uint64_t end_ms() const { return start_ms_ + config_.duration_ms; }
  bool playing(PlayerId id) const { return in_game_.count(id) > 0; }
  std::vector<PlayerId> waiting() const;
  // From the running totals, best first.
  std::vector<ArenaStanding> standings() const;
  // The same, recounted from the games in the order their results arrived.
  std::vector<ArenaStanding> recount() const;
  const Ledger& ledger() const { return ledger_; }

  std::string serialize() const;
  static Refusal restore(const std::string& text, ArenaTournament& out);
  bool operator==(const ArenaTournament& other) const {
    return config_ == other.config_ && started_ == other.started_ && start_ms_ == other.start_ms_ &&
           ledger_ == other.ledger_ && report_order_ == other.report_order_;
  }

 private:
  struct Tally {
    ArenaStanding standing;
    int64_t opponent_ratings = 0;
    PlayerId last_opponent = 0;
    bool has_last_opponent = false;
    uint32_t first_seats = 0;
  };
  Refusal leave(PlayerId id, uint64_t now_ms, bool disqualified);
  static void count(std::unordered_map<PlayerId, Tally>& tallies, const Ledger& ledger,
                    const Game& game);
  std::unordered_map<PlayerId, Tally> fresh_tallies() const;
  std::vector<ArenaStanding> ranked(const std::unordered_map<PlayerId, Tally>& tallies) const;

  ArenaConfig config_;
  bool started_ = false;
  uint64_t start_ms_ = 0;
  Ledger ledger_;
  std::vector<GameId> report_order_;
  std::unordered_map<PlayerId, Tally> tallies_;
  std::unordered_map<PlayerId, GameId> in_game_;
  std::unordered_map<PlayerId, uint64_t> waiting_since_ms_;  // the pool as pair_waiting saw it
  std::optional<uint64_t> retry_at_ms_;
};

}  // namespace duelhall::tournaments
