// The hall: one pool per ruleset, rating mode and clock, opened on demand and closed when empty,
// and one seek per player across all pools.
#include <catch2/catch.hpp>

#include "pairing/pairing_hall.hpp"
#include "pairing/pairing_support.hpp"

using namespace duelhall::pairing;
using namespace duelhall::pairing::testing;

namespace {

const PoolKey kDuelRated{"jedi_duel", true, "5+3"};
const PoolKey kDuelCasual{"jedi_duel", false, "5+3"};
const PoolKey kBattle{"force_battles", false, "10+0"};

// The host offers Jedi Duel and Force Battles, each at the one clock named above.
PairingHall hall(const IgnoreQuery* ignores = nullptr) {
  return PairingHall(
      [](const PoolKey& key) -> std::optional<PairingOptions> {
        if (key == kDuelRated || key == kDuelCasual || key == kBattle) return plain_options();
        return std::nullopt;
      },
      ignores);
}

}  // namespace

TEST_CASE("pairing: the hall pairs each pool apart and closes pools left empty") {
  PairingHall pools = hall();
  REQUIRE(pools.seek(kDuelRated, seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pools.seek(kBattle, seek_of(account(2), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pools.seek(kDuelRated, seek_of(account(3), 1510), at(0)) == PairingOutcome::kOk);
  CHECK(pools.pools() == 2);
  CHECK(pools.pool_of(account(2)) == kBattle);
  std::vector<PairingHall::Pairing> made = pools.wave(at(1));
  REQUIRE(made.size() == 1);  // 1 and 3 in the rated duel; 2 alone in the battle pool
  CHECK(made[0].pool == kDuelRated);
  CHECK(made[0].table.seekers.size() == 2);
  CHECK(pools.pools() == 1);
  CHECK(pools.pool(kDuelRated) == nullptr);
  CHECK_FALSE(pools.pool_of(account(1)));
  CHECK(pools.seeking() == 1);
  // Paired players may seek again, anywhere.
  CHECK(pools.seek(kBattle, seek_of(account(1), 1500), at(2)) == PairingOutcome::kOk);
}

TEST_CASE("pairing: the hall refuses a second seek in any pool and pools it does not offer") {
  PairingHall pools = hall();
  REQUIRE(pools.seek(kDuelCasual, seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  CHECK(pools.seek(kBattle, seek_of(account(1), 1500), at(0)) == PairingOutcome::kAlreadySeeking);
  CHECK(pools.seek(kDuelCasual, seek_of(account(1), 1500), at(0)) ==
        PairingOutcome::kAlreadySeeking);
  CHECK(pools.pools() == 1);  // the refused seek opened no pool
  CHECK(pools.seek(PoolKey{"jedi_duel", false, "1+0"}, seek_of(account(2), 1500), at(0)) ==
        PairingOutcome::kUnknownPool);
  CHECK(pools.seek(PoolKey{"chess", false, "5+3"}, seek_of(account(2), 1500), at(0)) ==
        PairingOutcome::kUnknownPool);
  // The pool's own refusals come through, and leave no empty pool behind.
  CHECK(pools.seek(kDuelRated, seek_of(guest(3), 1500), at(0)) ==
        PairingOutcome::kGuestInRatedPool);
  CHECK(pools.pool(kDuelRated) == nullptr);
  CHECK(pools.seeking() == 1);
  CHECK(describe(PairingOutcome::kUnknownPool) != describe(PairingOutcome::kPoolFull));
}

TEST_CASE("pairing: cancelling or leaving the hall takes the seeker out of their pool") {
  PairingHall pools = hall();
  REQUIRE(pools.seek(kBattle, seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pools.seek(kBattle, seek_of(account(2), 2400), at(0)) == PairingOutcome::kOk);
  CHECK(pools.cancel(account(1)) == PairingOutcome::kOk);
  CHECK(pools.cancel(account(1)) == PairingOutcome::kUnknownSeeker);
  CHECK(pools.pool(kBattle)->size() == 1);
  CHECK(pools.leave(account(2)));
  CHECK_FALSE(pools.leave(account(2)));
  CHECK(pools.pools() == 0);
  CHECK(pools.wave(at(60)).empty());
}

TEST_CASE("pairing: the hall passes the ignore lists to every pool") {
  IgnoreSet ignores;
  ignores.add(account(1), account(2));
  PairingHall pools = hall(&ignores);
  REQUIRE(pools.seek(kBattle, seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pools.seek(kBattle, seek_of(account(2), 1500), at(0)) == PairingOutcome::kOk);
  CHECK(pools.wave(at(1)).empty());
  REQUIRE(pools.seek(kBattle, seek_of(account(3), 1500), at(1)) == PairingOutcome::kOk);
  CHECK(pools.wave(at(2)).size() == 1);
  CHECK(pools.seeking() == 1);
}
