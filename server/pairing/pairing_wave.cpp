// A pairing wave (pairing_pool.hpp states the rule). Seekers are grouped by the seats they want
// and sorted by (rating, arrival); two-seat pairs are made nearest first among each seeker's
// `neighbours` next seekers in rating (from a heap of each seeker's next partner), tables of more
// seats from runs of adjacent seekers, then the tables bot fill may start short. Everything is
// sorted with total orders on numbers, so the same pool and `now` give the same tables.
#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "pairing/pairing_pool.hpp"

namespace duelhall::pairing {

std::vector<PairingPool::Candidate> PairingPool::candidates(uint32_t seats, Instant now) const {
  std::vector<Candidate> sorted;
  sorted.reserve(seekers_.size());
  for (uint32_t position = 0; position < seekers_.size(); ++position) {
    const Seeker& seeker = seekers_[position];
    if (seeker.seats == seats) {
      sorted.push_back({seeker.rating, seeker.order, allowance(seeker, now), position});
    }
  }
  std::sort(sorted.begin(), sorted.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.rating, a.order) < std::tie(b.rating, b.order);
  });
  return sorted;
}

void PairingPool::pair_nearest(const std::vector<Candidate>& sorted, std::vector<bool>& taken,
                               std::vector<Table>& tables) const {
  // The rule takes the allowed pairs (each seeker and the `neighbours` above it in rating) in the
  // order (gap, lower, upper) and makes each whose two are still free and may meet. Listing and
  // sorting every pair cost a 10,000-seeker wave more than its budget; instead each seeker keeps
  // only its next allowed partner above it in a heap with that order. Popping gives the pairs in
  // the same order (a seeker's later pairs are never nearer than its head), and a seeker whose
  // partner was taken, or may not meet it, moves on to the next: the same tables, fewer pairs.
  struct Pair {
    double gap;
    uint32_t low;
    uint32_t high;
  };
  auto after = [](const Pair& a, const Pair& b) {
    return std::tie(a.gap, a.low, a.high) > std::tie(b.gap, b.low, b.high);
  };
  const auto count = static_cast<uint32_t>(sorted.size());
  // Sorted by rating, the gap grows with `high`: the scan stops at the first gap past the lower
  // seeker's allowance.
  auto next_partner = [&](uint32_t low, uint32_t tried, Pair& pair) {
    const uint32_t last = std::min<uint32_t>(count - 1, low + options_.neighbours);
    for (uint32_t high = tried + 1; high <= last; ++high) {
      const double gap = sorted[high].rating - sorted[low].rating;
      if (gap > sorted[low].allowance) return false;
      if (gap <= sorted[high].allowance) {
        pair = {gap, low, high};
        return true;
      }
    }
    return false;
  };
  std::vector<Pair> heap;
  heap.reserve(count);
  Pair pair{};
  for (uint32_t low = 0; low < count; ++low) {
    if (next_partner(low, low, pair)) heap.push_back(pair);
  }
  std::make_heap(heap.begin(), heap.end(), after);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    const Pair nearest = heap.back();
    heap.pop_back();
    const uint32_t low = sorted[nearest.low].seeker;
    const uint32_t high = sorted[nearest.high].seeker;
    if (taken[low]) continue;  // paired from below: its own pairs are all void
    // Ignores are asked only of the pairs about to be made.
    if (!taken[high] && may_meet(seekers_[low].who, seekers_[high].who)) {
      taken[low] = taken[high] = true;
      Table table;  // built in place: a braced list would copy each seeker twice
      table.seekers.reserve(2);
      table.seekers.push_back(seekers_[low]);
      table.seekers.push_back(seekers_[high]);
      tables.push_back(std::move(table));
      continue;
    }
    if (next_partner(nearest.low, nearest.high, pair)) {
      heap.push_back(pair);
      std::push_heap(heap.begin(), heap.end(), after);
    }
  }
}

void PairingPool::group_tables(const std::vector<Candidate>& sorted, uint32_t seats,
                               std::vector<bool>& taken, std::vector<Table>& tables) const {
  // Runs of `seats` seekers adjacent in rating among those still free, narrowest spread first;
  // once some are taken the others close ranks, so repeat until a round makes nothing.
  for (bool made = true; made;) {
    made = false;
    std::vector<uint32_t> free;  // positions in `sorted`
    for (uint32_t i = 0; i < sorted.size(); ++i) {
      if (!taken[sorted[i].seeker]) free.push_back(i);
    }
    if (free.size() < seats) return;
    std::vector<std::pair<double, uint32_t>> runs;  // (spread, first index into `free`)
    for (uint32_t first = 0; first + seats <= free.size(); ++first) {
      const double spread = sorted[free[first + seats - 1]].rating - sorted[free[first]].rating;
      bool fits = true;
      for (uint32_t k = first; k < first + seats && fits; ++k) {
        fits = spread <= sorted[free[k]].allowance;
      }
      if (fits) runs.emplace_back(spread, first);
    }
    std::sort(runs.begin(), runs.end());
    for (const auto& [spread, first] : runs) {
      std::vector<uint32_t> members;
      for (uint32_t k = first; k < first + seats; ++k) members.push_back(sorted[free[k]].seeker);
      if (std::any_of(members.begin(), members.end(), [&](uint32_t m) { return taken[m]; })) {
        continue;
      }
      if (!all_meet(members)) continue;
      Table table;
      for (const uint32_t member : members) {
        taken[member] = true;
        table.seekers.push_back(seekers_[member]);
      }
      tables.push_back(std::move(table));
      made = true;
    }
  }
}

void PairingPool::fill_with_bots(const std::vector<Candidate>& sorted, uint32_t seats, Instant now,
                                 std::vector<bool>& taken, std::vector<Table>& tables) const {
  // Longest waiters first: each one past bot_fill_after opens a table and takes in the free
  // seekers nearest in rating that every member accepts; bots take the seats left.
  std::vector<uint32_t> waiting;  // positions in `sorted`
  for (uint32_t i = 0; i < sorted.size(); ++i) {
    if (!taken[sorted[i].seeker]) waiting.push_back(i);
  }
  std::sort(waiting.begin(), waiting.end(), [&](uint32_t a, uint32_t b) {
    const Seeker& first = seekers_[sorted[a].seeker];
    const Seeker& second = seekers_[sorted[b].seeker];
    return std::tie(first.since, first.order) < std::tie(second.since, second.order);
  });
  for (const uint32_t opener : waiting) {
    const Seeker& host = seekers_[sorted[opener].seeker];
    if (taken[sorted[opener].seeker] || now - host.since < options_.bot_fill_after) continue;
    std::vector<uint32_t> members{opener};
    std::vector<std::pair<double, uint32_t>> nearest;  // (gap to the opener, index in `sorted`)
    for (const uint32_t other : waiting) {
      if (other == opener || taken[sorted[other].seeker]) continue;
      nearest.emplace_back(std::abs(sorted[other].rating - sorted[opener].rating), other);
    }
    std::sort(nearest.begin(), nearest.end());
    for (const auto& [gap, other] : nearest) {
      if (members.size() == seats) break;
      bool fits = true;
      for (const uint32_t member : members) {
        const double spread = std::abs(sorted[member].rating - sorted[other].rating);
        fits = fits && spread <= sorted[member].allowance && spread <= sorted[other].allowance &&
               may_meet(seekers_[sorted[member].seeker].who, seekers_[sorted[other].seeker].who);
      }
      if (fits) members.push_back(other);
    }
    std::sort(members.begin(), members.end());  // rating order
    Table table;
    for (const uint32_t member : members) {
      taken[sorted[member].seeker] = true;
      table.seekers.push_back(seekers_[sorted[member].seeker]);
    }
    table.bot_seats = seats - static_cast<uint32_t>(members.size());
    tables.push_back(std::move(table));
  }
}

std::vector<Table> PairingPool::wave(Instant now) {
  std::vector<Table> tables;
  std::set<uint32_t> seat_counts;
  for (const Seeker& seeker : seekers_) seat_counts.insert(seeker.seats);
  std::vector<bool> taken(seekers_.size(), false);
  for (const uint32_t seats : seat_counts) {
    const std::vector<Candidate> sorted = candidates(seats, now);
    if (seats == 2) {
      pair_nearest(sorted, taken, tables);
      continue;
    }
    group_tables(sorted, seats, taken, tables);
    if (options_.bot_fill_after.count() > 0) fill_with_bots(sorted, seats, now, taken, tables);
  }
  if (!tables.empty()) remove_taken(taken);
  return tables;
}

}  // namespace duelhall::pairing
