// Swiss with multi-seat tables (Jedi Duel, 3 to 6 seats), scored in table points.
//
// Tables: the active players ranked by points, then rating, then id, are cut in that order into
// ceil(n / seats) tables whose sizes differ by at most one, the larger tables first (so a field
// of 7 at 6 seats plays tables of 4 and 3; a table falls to 2 seats only in fields too small to
// fill larger ones). Players of equal standing thus meet, as a score group does in two-seat
// Swiss; with several opponents per table, meeting again is allowed and not avoided. There are
// no byes. At a table the first seat goes to whoever has had it least, then by ranking.
// Points: by finishing place, as ledger.hpp counts them: two half-points for every seat placed
// below, one for every seat tied (first of k seats earns k-1 points, last 0, ties share).
// Standings and tiebreaks as for two seats (standings.hpp), every table opponent counting.
#pragma once

#include <unordered_map>
#include <vector>

#include "tournaments/swiss_pairing.hpp"

namespace duelhall::tournaments {

// Tables for one round; `first_seats` counts each player's first seats so far.
std::vector<std::vector<PlayerId>> form_tables(
    std::vector<SwissEntrant> entrants, uint32_t seats,
    const std::unordered_map<PlayerId, uint32_t>& first_seats);

}  // namespace duelhall::tournaments
