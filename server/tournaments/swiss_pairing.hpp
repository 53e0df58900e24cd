// One Swiss round's pairing, given each active player's standing so far.
//
// Players are ranked by points, then rating, then id. The rules, in the order they give way:
//  1. Byes: with an odd count, the lowest-ranked player who has had no bye sits out and scores a
//     win; moving up the ranking while that choice would force a repeat that another would not.
//  2. No repeats: no two players meet twice if any pairing of the round avoids it (a maximum
//     matching, Edmonds' blossom, decides whether one exists).
//  3. Score groups: the largest score gap between two paired players is the smallest that any
//     repeat-free pairing allows (0 when every group pairs within itself; players float down
//     when a group is odd or cannot pair inside).
//  4. Within that, a depth-first search from the top: the highest unpaired player takes, in
//     order, the nearest score, an opponent whose first-seat count does not clash with theirs,
//     and in their own score group the player half the group below them (top half against
//     bottom half by rating). The search backtracks; past a budget of steps it takes the
//     matching found in 2-3 as is (never seen in the benchmark).
// First seat: to the player with fewer first seats than second seats (the balance), then to the
// one who had the second seat last, then alternately to the higher-ranked (odd boards) and the
// lower-ranked (even boards).
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "tournaments/ledger.hpp"

namespace duelhall::tournaments {

struct SwissEntrant {
  PlayerId id = 0;
  int32_t points = 0;  // half-points
  int32_t rating = 0;
  bool had_bye = false;
  int32_t seat_balance = 0;  // first seats minus second seats
  uint8_t last_seat = 0;     // 0 none yet, 1 first, 2 second
};

struct SwissPairing {
  std::vector<std::pair<PlayerId, PlayerId>> boards;  // first seat, second seat; best board first
  std::optional<PlayerId> bye;
  int32_t score_gap = 0;        // the largest points difference on a board (half-points)
  bool repeats_forced = false;  // no repeat-free pairing existed
  bool search_gave_up = false;  // rule 4's budget ran out
};

using HaveMet = std::function<bool(PlayerId, PlayerId)>;

SwissPairing pair_swiss_round(std::vector<SwissEntrant> entrants, const HaveMet& have_met);

// The ranking the pairing uses (points, rating, id), best first.
void rank_entrants(std::vector<SwissEntrant>& entrants);

}  // namespace duelhall::tournaments
