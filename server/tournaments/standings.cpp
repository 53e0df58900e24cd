#include "tournaments/standings.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace duelhall::tournaments {

std::vector<Standing> swiss_standings(const Ledger& ledger) {
  std::unordered_map<PlayerId, size_t> row;
  std::vector<Standing> table;
  for (const Player& player : ledger.players()) {
    row[player.id] = table.size();
    Standing standing;
    standing.id = player.id;
    standing.rating = player.rating;
    standing.withdrawn = player.withdrawn;
    standing.disqualified = player.disqualified;
    table.push_back(standing);
  }
  for (const Game& game : ledger.games()) {
    if (!game.reported()) continue;
    for (size_t seat = 0; seat < game.seats.size(); ++seat) {
      Standing& standing = table[row.at(game.seats[seat])];
      int32_t points = half_points(game, seat);
      standing.points += points;
      ++standing.games;
      if (game.bye()) {
        ++standing.byes;
        continue;
      }
      int32_t most = 2 * static_cast<int32_t>(game.seats.size() - 1);
      if (points == most) {
        ++standing.wins;
      } else if (points == 0) {
        ++standing.losses;
      } else {
        ++standing.draws;
      }
    }
  }
  // Tiebreaks read the final points, so they need a second pass.
  std::vector<int32_t> lowest(table.size(), std::numeric_limits<int32_t>::max());
  std::vector<bool> met_anyone(table.size(), false);
  for (const Game& game : ledger.games()) {
    if (!game.reported() || game.bye()) continue;
    for (size_t seat = 0; seat < game.seats.size(); ++seat) {
      size_t me = row.at(game.seats[seat]);
      for (size_t other = 0; other < game.seats.size(); ++other) {
        if (other == seat) continue;
        int32_t their_points = table[row.at(game.seats[other])].points;
        table[me].buchholz_cut1 += their_points;
        table[me].sonneborn_berger += their_points * half_points_against(game, seat, other);
        lowest[me] = std::min(lowest[me], their_points);
        met_anyone[me] = true;
      }
    }
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (met_anyone[i]) table[i].buchholz_cut1 -= lowest[i];
  }
  std::sort(table.begin(), table.end(), [](const Standing& a, const Standing& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.buchholz_cut1 != b.buchholz_cut1) return a.buchholz_cut1 > b.buchholz_cut1;
    if (a.sonneborn_berger != b.sonneborn_berger) return a.sonneborn_berger > b.sonneborn_berger;
    if (a.rating != b.rating) return a.rating > b.rating;
    return a.id < b.id;
  });
  return table;
}

}  // namespace duelhall::tournaments
