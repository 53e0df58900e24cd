// Standings shared by Swiss and its multi-seat tables: points, then Buchholz cut 1 (the sum of
// the opponents' points without the lowest), then Sonneborn-Berger (each opponent's points
// weighted by the result against them: all for a win, half for a draw or tie), then rating,
// then id. A bye has no opponent: it adds its points and nothing to either tiebreak. All
// figures are in half-points (Sonneborn-Berger in quarter-points: half-points times 0..2).
#pragma once

#include <vector>

#include "tournaments/ledger.hpp"

namespace duelhall::tournaments {

struct Standing {
  PlayerId id = 0;
  int32_t rating = 0;
  int32_t points = 0;            // half-points
  int32_t buchholz_cut1 = 0;     // half-points
  int32_t sonneborn_berger = 0;  // quarter-points
  uint32_t games = 0, wins = 0, draws = 0, losses = 0, byes = 0;
  bool withdrawn = false, disqualified = false;
  bool operator==(const Standing&) const = default;
};

// Recounted from the reported games alone (running totals are not read), best first.
std::vector<Standing> swiss_standings(const Ledger& ledger);

}  // namespace duelhall::tournaments
