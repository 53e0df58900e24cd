#include "tournaments/swiss_tables.hpp"

#include <algorithm>

namespace duelhall::tournaments {

std::vector<std::vector<PlayerId>> form_tables(
    std::vector<SwissEntrant> entrants, uint32_t seats,
    const std::unordered_map<PlayerId, uint32_t>& first_seats) {
  rank_entrants(entrants);
  std::vector<std::vector<PlayerId>> tables;
  size_t n = entrants.size();
  if (n < 2 || seats < 2) return tables;
  size_t count = (n + seats - 1) / seats;
  size_t small = n / count, larger = n % count;
  size_t next = 0;
  for (size_t t = 0; t < count; ++t) {
    size_t size = small + (t < larger ? 1 : 0);
    std::vector<PlayerId> table;
    for (size_t i = 0; i < size; ++i) table.push_back(entrants[next + i].id);
    next += size;
    // Stable by rank: whoever had the first seat least takes it.
    auto firsts = [&](PlayerId id) {
      auto it = first_seats.find(id);
      return it == first_seats.end() ? 0u : it->second;
    };
    std::stable_sort(table.begin(), table.end(),
                     [&](PlayerId a, PlayerId b) { return firsts(a) < firsts(b); });
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace duelhall::tournaments
