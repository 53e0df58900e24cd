// The pairing rule, wave by wave: nearest first, the gap widening with the wait, both
// allowances, ignores both ways, tables of more seats, bot fill, and the same tables every time.
#include <catch2/catch.hpp>

#include "pairing/pairing_support.hpp"

using namespace duelhall::pairing;
using namespace duelhall::pairing::testing;

namespace {
const PoolKey kPool{"jedi_duel", true, "5+3"};

std::vector<int64_t> ids(const Table& table) {
  std::vector<int64_t> out;
  for (const Seeker& seeker : table.seekers) out.push_back(seeker.who.id);
  return out;
}
}  // namespace

TEST_CASE("pairing: a wave pairs the nearest ratings first") {
  PairingPool pool(kPool, plain_options());
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1530), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(3), 1540), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(4), 1580), at(0)) == PairingOutcome::kOk);
  // 2-3 (gap 10) before 1-2 (30) or 3-4 (40); then 1 and 4 are 80 apart, past 50.
  const std::vector<Table> tables = pool.wave(at(0));
  REQUIRE(tables.size() == 1);
  CHECK(ids(tables[0]) == std::vector<int64_t>{2, 3});
  CHECK(tables[0].bot_seats == 0);
  CHECK(pool.size() == 2);
  // Three seconds on, both accept 80: they meet in the next wave.
  const std::vector<Table> later = pool.wave(at(3));
  REQUIRE(later.size() == 1);
  CHECK(ids(later[0]) == std::vector<int64_t>{1, 4});
  CHECK(pool.size() == 0);
}

TEST_CASE("pairing: the allowed gap widens with the time waited, up to its cap") {
  PairingPool pool(kPool, plain_options());
  Seeker seeker;
  seeker.since = at(10);
  CHECK(pool.allowance(seeker, at(10)) == Approx(50));
  CHECK(pool.allowance(seeker, at(15)) == Approx(100));
  CHECK(pool.allowance(seeker, at(40)) == Approx(350));
  CHECK(pool.allowance(seeker, at(1000)) == Approx(400));  // max_gap
  CHECK(pool.allowance(seeker, at(0)) == Approx(50));      // a clock behind the seek: no wait
  PairingOptions options = plain_options();
  options.deviation_share = 0.5;
  seeker.deviation = 200;
  CHECK(PairingPool(kPool, options).allowance(seeker, at(10)) == Approx(150));

  // 200 apart: paired in the wave where both have waited 15 s, not one wave before.
  REQUIRE(pool.seek(seek_of(account(1), 1400), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1600), at(0)) == PairingOutcome::kOk);
  for (int second = 0; second < 15; ++second) CHECK(pool.wave(at(second)).empty());
  CHECK(pool.wave(at(15)).size() == 1);
}

TEST_CASE("pairing: a pair needs the gap to fit both allowances, the newcomer's too") {
  PairingPool pool(kPool, plain_options());
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  // 1 has waited 20 s (allowance 250) when 2 arrives 200 above: 2 allows 50 only.
  REQUIRE(pool.seek(seek_of(account(2), 1700), at(20)) == PairingOutcome::kOk);
  CHECK(pool.wave(at(20)).empty());
  CHECK(pool.wave(at(34)).empty());  // 2 allows 190
  CHECK(pool.wave(at(35)).size() == 1);
}

TEST_CASE("pairing: players are never paired when either ignores the other") {
  IgnoreSet ignores;
  ignores.add(account(1), account(2));  // 1 ignores 2
  ignores.add(account(4), account(3));  // 4 ignores 3: 3 never learns it, still never paired
  PairingPool pool(kPool, plain_options(), &ignores);
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(3), 1800), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(4), 1800), at(0)) == PairingOutcome::kOk);
  for (int second = 0; second < 60; ++second) {
    for (const Table& table : pool.wave(at(second))) {
      // Only the cross pairs may form, once the gap of 300 fits: 1 or 2 with 3 or 4.
      CHECK(table.seekers[0].rating == 1500);
      CHECK(table.seekers[1].rating == 1800);
    }
  }
  CHECK(pool.size() == 0);
  CHECK_FALSE(pool.may_meet(account(2), account(1)));
  CHECK_FALSE(pool.may_meet(account(3), account(4)));
  CHECK(pool.may_meet(account(1), account(3)));
}

TEST_CASE("pairing: an ignored nearest neighbour sends the seeker to the next one") {
  IgnoreSet ignores;
  ignores.add(account(2), account(1));
  PairingPool pool(kPool, plain_options(), &ignores);
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1501), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(3), 1520), at(0)) == PairingOutcome::kOk);
  const std::vector<Table> tables = pool.wave(at(0));
  REQUIRE(tables.size() == 1);
  CHECK(ids(tables[0]) == std::vector<int64_t>{2, 3});
}

TEST_CASE("pairing: tables of four seats wait until four fit, then form from the nearest") {
  PairingOptions options = plain_options();
  options.min_seats = 2;
  options.max_seats = 6;
  PairingPool pool(kPool, options);
  for (int64_t id = 1; id <= 3; ++id) {
    REQUIRE(pool.seek(seek_of(account(id), 1500 + id, 0, 4), at(0)) == PairingOutcome::kOk);
  }
  // A two-seat seeker in reach is no help to a four-seat table.
  REQUIRE(pool.seek(seek_of(account(9), 1500, 0, 2), at(0)) == PairingOutcome::kOk);
  for (int second = 0; second < 30; ++second) CHECK(pool.wave(at(second)).empty());
  REQUIRE(pool.seek(seek_of(account(4), 1510, 0, 4), at(30)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(5), 1900, 0, 4), at(30)) == PairingOutcome::kOk);
  const std::vector<Table> tables = pool.wave(at(30));
  REQUIRE(tables.size() == 1);
  CHECK(ids(tables[0]) == std::vector<int64_t>{1, 2, 3, 4});
  CHECK(tables[0].bot_seats == 0);
  CHECK(pool.size() == 2);
  CHECK(pool.seeking(account(5)));
  CHECK(pool.seeking(account(9)));
}

TEST_CASE("pairing: bot fill starts a table short after its wait, and never before") {
  PairingOptions options = plain_options();
  options.min_seats = 3;
  options.max_seats = 6;
  options.bot_fill_after = std::chrono::seconds(20);
  PairingPool pool(kPool, options);
  REQUIRE(pool.seek(seek_of(account(1), 1500, 0, 5), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1540, 0, 5), at(5)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(3), 2500, 0, 5), at(5)) == PairingOutcome::kOk);
  for (int second = 0; second < 20; ++second) CHECK(pool.wave(at(second)).empty());
  const std::vector<Table> tables = pool.wave(at(20));
  // 1 waited 20 s and opens a table with 2, who is in both reaches; 3 is 1000 away and stays.
  REQUIRE(tables.size() == 1);
  CHECK(ids(tables[0]) == std::vector<int64_t>{1, 2});
  CHECK(tables[0].bot_seats == 3);
  CHECK(pool.size() == 1);
  // Alone past its wait, 3 gets a table of its own with four bots.
  const std::vector<Table> alone = pool.wave(at(25));
  REQUIRE(alone.size() == 1);
  CHECK(ids(alone[0]) == std::vector<int64_t>{3});
  CHECK(alone[0].bot_seats == 4);
}

TEST_CASE("pairing: without bot fill a lone table seeker waits for ever") {
  PairingOptions options = plain_options();
  options.max_seats = 6;
  PairingPool pool(kPool, options);
  REQUIRE(pool.seek(seek_of(account(1), 1500, 0, 3), at(0)) == PairingOutcome::kOk);
  CHECK(pool.wave(at(100000)).empty());
  CHECK(pool.size() == 1);
}

TEST_CASE("pairing: the same seeks give the same tables, whatever order they came in") {
  // Equal ratings everywhere: only the arrival order may break the ties.
  auto run = [](bool reversed) {
    PairingPool pool(kPool, plain_options());
    for (int64_t n = 0; n < 40; ++n) {
      const int64_t id = reversed ? 40 - n : n + 1;
      REQUIRE(pool.seek(seek_of(account(id), 1500 + (id % 5) * 7), at(0)) == PairingOutcome::kOk);
    }
    std::vector<std::vector<int64_t>> made;
    for (const Table& table : pool.wave(at(0))) made.push_back(ids(table));
    return made;
  };
  CHECK(run(false) == run(false));
  const auto forward = run(false);
  const auto backward = run(true);
  REQUIRE(forward.size() == 20);
  REQUIRE(backward.size() == 20);
  // Each table pairs equal ratings in both runs; which equals go together follows arrival.
  for (const auto& table : backward) CHECK(table[0] % 5 == table[1] % 5);
}
