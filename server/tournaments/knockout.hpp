// A knockout (single elimination) bracket, seeded by rating.
//
// Seeds: 1 for the highest rating (ties: lower id first). The bracket has P = the next power of
// two slots, filled in the standard order (1 v P, P/2 v P/2+1, ...: built by replacing each seed
// s of the bracket for P/2 with the pair s, P+1-s), so seeds 1 and 2 sit in opposite halves and
// can meet only in the final, 1 to 4 only in the semi-finals, and so on. The P - n missing seeds
// are byes, which by that order fall to the top seeds. A match is best of 1 or of 3 (config):
// the first to win a majority of best_of games wins it; a drawn game counts for neither and
// another is played. A withdrawn or disqualified player loses their next match by walkover (both
// gone: the higher seed is advanced and loses the next one). The bracket is complete when the
// final has a winner: every match then has a winner, by play, bye or walkover.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tournaments/ledger.hpp"

namespace duelhall::tournaments {

struct KnockoutConfig {
  uint32_t max_players = 0;  // 0: no limit
  uint32_t best_of = 1;      // 1 or 3
  // Fewest registered players to start with (0: only the format's own two); fewer at the start
  // is kTooFewPlayers, and the director cancels or postpones.
  uint32_t min_players = 0;
  bool operator==(const KnockoutConfig&) const = default;
};

using MatchId = uint32_t;

// One player's line in a bracket's standings: how far they got and who put them out.
struct KnockoutStanding {
  PlayerId id = 0;
  int32_t seed = 0;
  uint32_t round_reached = 0;  // the last round the player has a match in (the final: rounds())
  // 1 the champion, 2 the finalist, 3 each losing semi-finalist, 5 each losing quarter-finalist,
  // and so on (2^k + 1 for those out k rounds before the final); 0 while still in.
  uint32_t place = 0;
  std::optional<PlayerId> eliminated_by;  // the winner of the match this player lost
  bool by_walkover = false;               // that match was lost by withdrawal or disqualification
  bool operator==(const KnockoutStanding&) const = default;
};

struct KnockoutMatch {
  uint32_t round = 1;  // 1 = first round; the final is the last
  int32_t first = 0;   // seed (1-based), 0 not known yet, -1 a bye
  int32_t second = 0;
  uint32_t first_wins = 0, second_wins = 0, draws = 0;
  int32_t winner = 0;     // seed, 0 undecided
  bool walkover = false;  // decided by a bye, a withdrawal or a disqualification
  bool operator==(const KnockoutMatch&) const = default;
};

class KnockoutTournament {
 public:
  explicit KnockoutTournament(KnockoutConfig config = {}) : config_(config) {}

  Refusal add_player(PlayerId id, int32_t rating);
  Refusal withdraw(PlayerId id);
  Refusal disqualify(PlayerId id);
  // Seeds the players and builds the bracket; byes and walkovers are decided at once.
  Refusal start();
  // Matches ready to play: both players known, no winner yet.
  std::vector<MatchId> pairings() const;
  // Who sits first and second in the next game of a ready match (nothing for one not ready):
  // the higher seed first in the match's odd games (the 1st, the 3rd...), the lower seed in its
  // even ones; drawn games count, so a replayed game swaps the seats too.
  std::optional<std::pair<PlayerId, PlayerId>> next_game_seats(MatchId match) const;
  // One game of a match; refuses matches not ready and matches already decided.
  Refusal record_game(MatchId match, Outcome outcome);

  bool started() const { return !matches_.empty(); }
  bool finished() const { return started() && matches_.back().winner != 0; }
  std::optional<PlayerId> champion() const;
  PlayerId player_of_seed(int32_t seed) const { return seeds_.at(static_cast<size_t>(seed - 1)); }
  const std::vector<KnockoutMatch>& matches() const { return matches_; }
  uint32_t rounds() const { return rounds_; }
  // Every seeded player (none before the start), furthest first: the champion, then by the round
  // reached (the winner of a match counts as reaching the next round), those still in before
  // those out in the same round, then by seed.
  std::vector<KnockoutStanding> standings() const;
  const Ledger& ledger() const { return ledger_; }

  std::string serialize() const;
  static Refusal restore(const std::string& text, KnockoutTournament& out);
  bool operator==(const KnockoutTournament& other) const {
    return config_ == other.config_ && ledger_ == other.ledger_ && seeds_ == other.seeds_ &&
           matches_ == other.matches_;
  }

 private:
  Refusal leave(PlayerId id, bool disqualified);
  bool seed_active(int32_t seed) const;
  void decide(MatchId match, int32_t winner, bool walkover);
  void settle();  // byes and walkovers, until nothing changes

  KnockoutConfig config_;
  Ledger ledger_;
  std::vector<PlayerId> seeds_;         // seeds_[s - 1] is seed s
  std::vector<KnockoutMatch> matches_;  // round by round, the final last
  uint32_t rounds_ = 0;
};

// The standard bracket order of seeds 1..slots (slots a power of two).
std::vector<int32_t> bracket_order(uint32_t slots);

}  // namespace duelhall::tournaments
