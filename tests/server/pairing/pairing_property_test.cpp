// The pairing rule held over thousands of random pools, waves and departures: nobody paired
// twice, nobody lost (each seeker is paired once, still waiting, or left), every table within
// all its members' allowances, no ignored pair, tables the size their seekers asked for.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "pairing/pairing_support.hpp"

using namespace duelhall::pairing;
using namespace duelhall::pairing::testing;

namespace {

// splitmix64: the same numbers on every standard library.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t bound) { return next() % bound; }
};

struct Checks {
  int paired_twice = 0;
  int lost = 0;
  int outside_allowance = 0;
  int ignored_pair = 0;
  int wrong_size = 0;
  size_t tables = 0;
};

void run_pool(uint64_t seed, Checks& checks) {
  Random random{seed};
  PairingOptions options;
  options.base_gap = static_cast<double>(random.below(100));
  options.deviation_share = static_cast<double>(random.below(3)) * 0.25;
  options.widening_per_second = static_cast<double>(random.below(40));
  options.max_gap = 200 + static_cast<double>(random.below(800));
  options.neighbours = 1 + static_cast<uint32_t>(random.below(8));
  options.min_seats = 2;
  options.max_seats = random.below(2) == 0 ? 2 : 5;
  options.bot_fill_after = std::chrono::seconds(random.below(2) == 0 ? 0 : 1 + random.below(10));
  IgnoreSet ignores;
  PairingPool pool(PoolKey{"jedi_duel", random.below(2) == 0, "3+2"}, options, &ignores);

  const int64_t players = 2 + static_cast<int64_t>(random.below(60));
  for (int64_t a = 1; a <= players; ++a) {
    if (random.below(10) == 0) ignores.add(account(a), account(1 + random.below(players)));
  }
  std::map<int64_t, int> times_paired;
  std::map<int64_t, bool> left;
  int64_t arrived = 0;
  for (int second = 0; second < 40; ++second) {
    const Instant now = at(second);
    while (arrived < players && random.below(3) != 0) {
      ++arrived;
      const uint32_t seats = 2 + static_cast<uint32_t>(random.below(options.max_seats - 1));
      const double rating = 800 + static_cast<double>(random.below(1600));
      const double deviation = static_cast<double>(random.below(350));
      REQUIRE(pool.seek(seek_of(account(arrived), rating, deviation, seats), now) ==
              PairingOutcome::kOk);
    }
    if (arrived > 0 && random.below(4) == 0) {
      const int64_t leaver = 1 + static_cast<int64_t>(random.below(arrived));
      if (pool.leave(account(leaver))) left[leaver] = true;
    }
    for (const Table& table : pool.wave(now)) {
      ++checks.tables;
      const uint32_t seats = table.seekers.front().seats;
      if (table.seekers.size() + table.bot_seats != seats) ++checks.wrong_size;
      if (table.bot_seats > 0 && options.bot_fill_after.count() == 0) ++checks.wrong_size;
      if (seats == 2 && table.seekers.size() != 2) ++checks.wrong_size;
      for (size_t i = 0; i < table.seekers.size(); ++i) {
        const Seeker& a = table.seekers[i];
        if (a.seats != seats) ++checks.wrong_size;
        if (++times_paired[a.who.id] > 1 || left.contains(a.who.id)) ++checks.paired_twice;
        for (size_t j = i + 1; j < table.seekers.size(); ++j) {
          const Seeker& b = table.seekers[j];
          const double gap = std::abs(a.rating - b.rating);
          if (gap > pool.allowance(a, now) || gap > pool.allowance(b, now)) {
            ++checks.outside_allowance;
          }
          if (ignores.ignores(a.who, b.who) || ignores.ignores(b.who, a.who)) {
            ++checks.ignored_pair;
          }
        }
      }
    }
  }
  // Everyone who came is in exactly one place: paired, waiting, or gone.
  if (pool.size() + times_paired.size() + left.size() != static_cast<size_t>(arrived)) {
    ++checks.lost;
  }
  for (int64_t id = 1; id <= arrived; ++id) {
    const int states =
        times_paired[id] + (pool.seeking(account(id)) ? 1 : 0) + (left.contains(id) ? 1 : 0);
    if (states != 1) ++checks.lost;
  }
}

// The two-seat rule written the plain way: list every allowed pair among each seeker and the
// `neighbours` above it in (rating, arrival) order, sort them by (gap, lower, upper), make each
// whose two are free and may meet. Returns the pairs' ids in the order made.
std::vector<std::pair<int64_t, int64_t>> listed_and_sorted(const PairingPool& pool, Instant now) {
  std::vector<Seeker> sorted = pool.seekers();
  std::sort(sorted.begin(), sorted.end(), [](const Seeker& a, const Seeker& b) {
    return std::tie(a.rating, a.order) < std::tie(b.rating, b.order);
  });
  std::vector<std::tuple<double, size_t, size_t>> pairs;
  for (size_t i = 0; i < sorted.size(); ++i) {
    for (size_t j = i + 1; j < sorted.size() && j <= i + pool.options().neighbours; ++j) {
      const double gap = sorted[j].rating - sorted[i].rating;
      if (gap > pool.allowance(sorted[i], now)) break;
      if (gap <= pool.allowance(sorted[j], now)) pairs.emplace_back(gap, i, j);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<bool> taken(sorted.size(), false);
  std::vector<std::pair<int64_t, int64_t>> made;
  for (const auto& [gap, low, high] : pairs) {
    if (taken[low] || taken[high] || !pool.may_meet(sorted[low].who, sorted[high].who)) continue;
    taken[low] = taken[high] = true;
    made.emplace_back(sorted[low].who.id, sorted[high].who.id);
  }
  return made;
}

}  // namespace

TEST_CASE(
    "pairing: a wave makes the same pairs, in the same order, as listing and sorting every "
    "allowed pair") {
  size_t pairs = 0;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    Random random{seed};
    PairingOptions options;
    options.base_gap = static_cast<double>(random.below(100));
    options.deviation_share = static_cast<double>(random.below(3)) * 0.25;
    options.widening_per_second = static_cast<double>(random.below(40));
    options.neighbours = 1 + static_cast<uint32_t>(random.below(8));
    IgnoreSet ignores;
    PairingPool pool(PoolKey{"force_battles", false, "5+3"}, options, &ignores);
    const int64_t players = 2 + static_cast<int64_t>(random.below(120));
    for (int64_t a = 1; a <= players; ++a) {
      if (random.below(5) == 0) ignores.add(account(a), account(1 + random.below(players)));
      // Ratings on a coarse grid so that equal ratings and equal gaps are common.
      const double rating = 1000 + 10 * static_cast<double>(random.below(60));
      const Instant since = at(static_cast<double>(random.below(20)));
      REQUIRE(pool.seek(seek_of(account(a), rating, static_cast<double>(random.below(300))),
                        since) == PairingOutcome::kOk);
    }
    const Instant now = at(20);
    const std::vector<std::pair<int64_t, int64_t>> expected = listed_and_sorted(pool, now);
    std::vector<std::pair<int64_t, int64_t>> made;
    for (const Table& table : pool.wave(now)) {
      REQUIRE(table.seekers.size() == 2);
      made.emplace_back(table.seekers[0].who.id, table.seekers[1].who.id);
    }
    REQUIRE(made == expected);
    pairs += made.size();
  }
  CHECK(pairs > 20000);
}

TEST_CASE(
    "pairing: over 3000 random pools nobody is paired twice or lost, no table breaks "
    "an allowance or an ignore") {
  Checks checks;
  for (uint64_t seed = 1; seed <= 3000; ++seed) run_pool(seed, checks);
  CHECK(checks.paired_twice == 0);
  CHECK(checks.lost == 0);
  CHECK(checks.outside_allowance == 0);
  CHECK(checks.ignored_pair == 0);
  CHECK(checks.wrong_size == 0);
  CHECK(checks.tables > 10000);  // the pools did pair: the checks above had something to check
}
