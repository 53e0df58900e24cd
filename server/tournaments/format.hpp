// One face for the three formats, so that whoever directs a tournament (the server's tournament
// room, the benchmark) runs Swiss, arena and knockout alike: players join and leave, the
// tournament starts, advance() makes the games that should be played now, results come back by
// game key, and the standings come out as rows of one shape.
//
// A game key names one game to play: a Swiss or arena game's ledger id, or, for a knockout, its
// match and the number of games that match has played (a best-of-3 plays several games). A game
// is pending from the advance() that made it until its result; pending() lists them, so a
// director that restarts from serialize() finds the games it still has to hold.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tournaments/arena.hpp"
#include "tournaments/knockout.hpp"
#include "tournaments/swiss.hpp"

namespace duelhall::tournaments {

enum class FormatKind : uint8_t { kSwiss, kArena, kKnockout };
const char* format_name(FormatKind kind);

struct FormatConfig {
  FormatKind kind = FormatKind::kSwiss;
  uint32_t max_players = 0;
  uint32_t min_players = 0;
  uint32_t rounds = 5;                          // Swiss
  uint32_t table_seats = 2;                     // Swiss: 3..6 for multi-seat tables
  uint64_t duration_ms = 30 * 60 * 1000;        // arena
  uint64_t rematch_wait_ms = 15 * 1000;         // arena
  uint32_t best_of = 1;                         // knockout: 1 or 3
};

struct PendingGame {
  uint64_t key = 0;
  uint32_t round = 0;            // Swiss and knockout rounds (1-based); arena 0
  std::vector<PlayerId> seats;   // seat 0 first
  bool operator==(const PendingGame&) const = default;
};

// A line of the standings, whichever the format: `points` and the two tie-breaks in the format's
// own unit (Swiss: half-points, Buchholz cut 1 in half-points, Sonneborn-Berger in quarter-points;
// arena: points and performance; knockout: the round reached and the place).
struct StandingRow {
  uint32_t rank = 0;  // 1-based; a knockout's players still in share the rank of their round
  PlayerId id = 0;
  int32_t rating = 0;
  int32_t points = 0;
  int32_t tiebreak1 = 0;
  int32_t tiebreak2 = 0;
  uint32_t games = 0, wins = 0, draws = 0, losses = 0;
  bool left = false;  // withdrawn or disqualified
  bool operator==(const StandingRow&) const = default;
};

class Format {
 public:
  virtual ~Format() = default;
  virtual FormatKind kind() const = 0;
  virtual Refusal join(PlayerId id, int32_t rating, uint64_t now_ms) = 0;
  virtual Refusal leave(PlayerId id, bool disqualified, uint64_t now_ms) = 0;
  virtual Refusal start(uint64_t now_ms) = 0;
  virtual bool started() const = 0;
  // Makes the games due now (the next Swiss round once the last is complete, the arena's
  // waiting pool, nothing for a knockout, whose matches become ready as results arrive) and
  // returns every pending game.
  virtual std::vector<PendingGame> advance(uint64_t now_ms) = 0;
  virtual std::vector<PendingGame> pending() const = 0;
  // A game's finishing places, one per seat in seat order (1 best; "1 1" a draw).
  virtual Refusal record(uint64_t key, const std::vector<uint8_t>& places) = 0;
  // No game will be made any more and none is pending.
  virtual bool over(uint64_t now_ms) const = 0;
  // The current round (Swiss, knockout); the arena's 0.
  virtual uint32_t round() const = 0;
  // When advance() should be called again though nothing happened (an arena's held rematch, its
  // end); 0: only on events.
  virtual uint64_t wake_at_ms() const { return 0; }
  virtual std::vector<StandingRow> standings() const = 0;
  virtual const Ledger& ledger() const = 0;
  virtual std::string serialize() const = 0;
};

std::unique_ptr<Format> make_format(const FormatConfig& config);
// kBadEncoding unless `text` is the serialize() of a format of `kind`.
Refusal restore_format(FormatKind kind, const std::string& text, std::unique_ptr<Format>& out);

// Places for a two-seat outcome and back; std::nullopt for places that are not a two-seat result.
std::optional<Outcome> outcome_of(const std::vector<uint8_t>& places);

}  // namespace duelhall::tournaments
