// A pool's door: who may seek, cancel and leave, and the typed refusals that change nothing.
#include <catch2/catch.hpp>
#include <cmath>

#include "pairing/pairing_support.hpp"

using namespace duelhall::pairing;
using namespace duelhall::pairing::testing;

namespace {
PoolKey casual() { return PoolKey{"jedi_duel", false, "5+3"}; }
PoolKey rated() { return PoolKey{"jedi_duel", true, "5+3"}; }
}  // namespace

TEST_CASE("pairing: a seek enters the pool with its time and arrival order") {
  PairingPool pool(casual(), plain_options());
  Seek seek = seek_of(account(7), 1640, 80);
  seek.deck = "young jedi deck 3";
  REQUIRE(pool.seek(seek, at(2)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(8), 1500), at(3)) == PairingOutcome::kOk);
  CHECK(pool.size() == 2);
  CHECK(pool.seeking(account(7)));
  CHECK(pool.seekers()[0].since == at(2));
  CHECK(pool.seekers()[0].deck == "young jedi deck 3");
  CHECK(pool.seekers()[0].order < pool.seekers()[1].order);
}

TEST_CASE("pairing: seeking twice is refused and the first seek stays as it was") {
  PairingPool pool(casual(), plain_options());
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  CHECK(pool.seek(seek_of(account(1), 1900), at(5)) == PairingOutcome::kAlreadySeeking);
  REQUIRE(pool.size() == 1);
  CHECK(pool.seekers()[0].rating == 1500);
  CHECK(pool.seekers()[0].since == at(0));
  // A guest numbered like an account is another player.
  CHECK(pool.seek(seek_of(guest(1), 1500), at(5)) == PairingOutcome::kOk);
}

TEST_CASE("pairing: guests seek in casual pools only") {
  PairingPool rated_pool(rated(), plain_options());
  CHECK(rated_pool.seek(seek_of(guest(3), 1500), at(0)) == PairingOutcome::kGuestInRatedPool);
  CHECK(rated_pool.size() == 0);
  CHECK(rated_pool.seek(seek_of(account(3), 1500), at(0)) == PairingOutcome::kOk);
  PairingPool casual_pool(casual(), plain_options());
  CHECK(casual_pool.seek(seek_of(guest(3), 1500), at(0)) == PairingOutcome::kOk);
}

TEST_CASE("pairing: a full pool refuses the next seek until someone leaves") {
  PairingOptions options = plain_options();
  options.max_seekers = 3;
  PairingPool pool(casual(), options);
  for (int64_t id = 1; id <= 3; ++id) {
    REQUIRE(pool.seek(seek_of(account(id), 1000 * id), at(0)) == PairingOutcome::kOk);
  }
  CHECK(pool.seek(seek_of(account(4), 1500), at(0)) == PairingOutcome::kPoolFull);
  CHECK(pool.size() == 3);
  CHECK(pool.leave(account(2)));
  CHECK(pool.seek(seek_of(account(4), 1500), at(0)) == PairingOutcome::kOk);
}

TEST_CASE("pairing: seats outside the pool's range and ratings that are not numbers are refused") {
  PairingOptions options = plain_options();
  options.min_seats = 3;
  options.max_seats = 6;
  PairingPool pool(casual(), options);
  CHECK(pool.seek(seek_of(account(1), 1500, 0, 2), at(0)) == PairingOutcome::kSeatsOutOfRange);
  CHECK(pool.seek(seek_of(account(1), 1500, 0, 7), at(0)) == PairingOutcome::kSeatsOutOfRange);
  CHECK(pool.seek(seek_of(account(1), std::nan(""), 0, 4), at(0)) ==
        PairingOutcome::kRatingNotFinite);
  CHECK(pool.seek(seek_of(account(1), 1500, -1, 4), at(0)) == PairingOutcome::kRatingNotFinite);
  CHECK(pool.seek(seek_of(account(1), 1500, INFINITY, 4), at(0)) ==
        PairingOutcome::kRatingNotFinite);
  CHECK(pool.size() == 0);
  CHECK(pool.seek(seek_of(account(1), 1500, 0, 4), at(0)) == PairingOutcome::kOk);
}

TEST_CASE("pairing: cancel takes the seeker out, and cancelling again is an unknown seeker") {
  PairingPool pool(casual(), plain_options());
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(3), 1900), at(0)) == PairingOutcome::kOk);
  CHECK(pool.cancel(account(1)) == PairingOutcome::kOk);
  CHECK(pool.cancel(account(1)) == PairingOutcome::kUnknownSeeker);
  CHECK(pool.cancel(account(99)) == PairingOutcome::kUnknownSeeker);
  CHECK_FALSE(pool.seeking(account(1)));
  // 2 is left alone: nobody to pair with in reach.
  CHECK(pool.wave(at(1)).empty());
  CHECK(pool.size() == 2);
}

TEST_CASE("pairing: leaving (a disconnect) takes the seeker out of the next wave, silently") {
  PairingPool pool(casual(), plain_options());
  REQUIRE(pool.seek(seek_of(account(1), 1500), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(2), 1510), at(0)) == PairingOutcome::kOk);
  REQUIRE(pool.seek(seek_of(account(3), 1530), at(0)) == PairingOutcome::kOk);
  CHECK(pool.leave(account(2)));
  CHECK_FALSE(pool.leave(account(2)));  // already out: nothing to refuse
  const std::vector<Table> tables = pool.wave(at(0));
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].seekers[0].who == account(1));
  CHECK(tables[0].seekers[1].who == account(3));
  // Out of the pool once paired: a cancel after the wave is refused.
  CHECK(pool.cancel(account(1)) == PairingOutcome::kUnknownSeeker);
  CHECK(pool.size() == 0);
}

TEST_CASE("pairing: every refusal has its own words") {
  CHECK(describe(PairingOutcome::kAlreadySeeking) != describe(PairingOutcome::kPoolFull));
  CHECK(describe(PairingOutcome::kGuestInRatedPool).find("casual") != std::string_view::npos);
}
