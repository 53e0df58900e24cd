// A Swiss tournament: a fixed number of rounds, each paired from the standings so far
// (swiss_pairing.hpp for two seats, swiss_tables.hpp for multi-seat tables), ranked by
// standings.hpp. Players register until the first round is paired; a withdrawn or disqualified
// player is paired no more and keeps the results already played (a game already paired still
// needs its result: the director records the forfeit). Everything lives in the ledger, so
// serialize() and restore() carry the whole state, and a restored tournament pairs the next
// round exactly as the original would.
#pragma once

#include <string>
#include <vector>

#include "tournaments/ledger.hpp"
#include "tournaments/standings.hpp"
#include "tournaments/swiss_pairing.hpp"

namespace duelhall::tournaments {

struct SwissConfig {
  uint32_t rounds = 5;
  uint32_t max_players = 0;  // 0: no limit
  uint32_t table_seats = 2;  // 3..6 for multi-seat tables (table points)
  // Fewest registered players to start with (0: only the format's own two); fewer at the start
  // is kTooFewPlayers, and the director cancels or postpones.
  uint32_t min_players = 0;
  bool operator==(const SwissConfig&) const = default;
};

class SwissTournament {
 public:
  explicit SwissTournament(SwissConfig config = {}) : config_(config) {}

  Refusal add_player(PlayerId id, int32_t rating);
  Refusal withdraw(PlayerId id);
  Refusal disqualify(PlayerId id);
  // Pairs the next round into new games (their ids in `games` when given).
  Refusal next_round(std::vector<GameId>* games = nullptr);
  // A two-seat game's result; refuses unknown games, games of past rounds and second results.
  Refusal record_result(GameId game, Outcome outcome);
  // A table's finishing places, one per seat in seat order (competition ranking, "1 2 2 4").
  Refusal record_places(GameId game, const std::vector<uint8_t>& places);

  std::vector<Standing> standings() const { return swiss_standings(ledger_); }
  std::vector<GameId> current_games() const;
  uint32_t round() const { return round_; }
  bool started() const { return round_ > 0; }
  bool finished() const;
  const SwissConfig& config() const { return config_; }
  const Ledger& ledger() const { return ledger_; }
  // The pairing details of the last round paired here (not restored: a diagnostic).
  const SwissPairing& last_pairing() const { return last_pairing_; }

  std::string serialize() const;
  // kBadEncoding unless `text` is a "duelhall-tournament swiss" encoding of version 1 or 2.
  static Refusal restore(const std::string& text, SwissTournament& out);
  bool operator==(const SwissTournament& other) const {
    return config_ == other.config_ && round_ == other.round_ && ledger_ == other.ledger_;
  }

 private:
  Refusal leave(PlayerId id, bool disqualified);
  bool round_complete() const;
  std::vector<SwissEntrant> entrants() const;

  SwissConfig config_;
  uint32_t round_ = 0;
  Ledger ledger_;
  SwissPairing last_pairing_;
};

}  // namespace duelhall::tournaments
