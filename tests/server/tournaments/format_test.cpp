// The one face of the three formats (server/tournaments/format.hpp), as a director drives it.
#include <catch2/catch.hpp>

#include "tournaments/format.hpp"

using namespace duelhall::tournaments;

namespace {

const std::vector<uint8_t> kSeatZeroWins{1, 2};
const std::vector<uint8_t> kDrawn{1, 1};

std::unique_ptr<Format> with_players(FormatConfig config, int players, uint64_t now = 0) {
  std::unique_ptr<Format> format = make_format(config);
  for (int i = 1; i <= players; ++i) {
    REQUIRE(format->join(static_cast<PlayerId>(i), 1400 + 50 * i, now) == Refusal::kOk);
  }
  return format;
}

}  // namespace

TEST_CASE("tournaments: format: a Swiss runs its rounds through advance and record, then is over") {
  FormatConfig config;
  config.rounds = 2;
  auto swiss = with_players(config, 4);
  REQUIRE(swiss->start(0) == Refusal::kOk);
  CHECK(swiss->round() == 1);
  std::vector<PendingGame> games = swiss->advance(0);
  REQUIRE(games.size() == 2);
  for (const PendingGame& game : games) REQUIRE(swiss->record(game.key, kSeatZeroWins) == Refusal::kOk);
  CHECK_FALSE(swiss->over(0));
  games = swiss->advance(0);
  REQUIRE(games.size() == 2);
  CHECK(swiss->round() == 2);
  CHECK(swiss->record(games[0].key, {1, 3}) == Refusal::kBadResult);
  for (const PendingGame& game : games) REQUIRE(swiss->record(game.key, kDrawn) == Refusal::kOk);
  CHECK(swiss->advance(0).empty());
  CHECK(swiss->over(0));
  const std::vector<StandingRow> rows = swiss->standings();
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].rank == 1);
  CHECK(rows[0].points == 3);  // a win and a draw, in half-points
  CHECK(rows[0].games == 2);
}

TEST_CASE("tournaments: format: a restored tournament holds the same pending games") {
  for (FormatKind kind : {FormatKind::kSwiss, FormatKind::kArena, FormatKind::kKnockout}) {
    FormatConfig config;
    config.kind = kind;
    auto format = with_players(config, 5, 1000);
    REQUIRE(format->start(1000) == Refusal::kOk);
    const std::vector<PendingGame> games = format->advance(1000);
    REQUIRE_FALSE(games.empty());
    REQUIRE(format->record(games[0].key, kSeatZeroWins) == Refusal::kOk);
    std::unique_ptr<Format> restored;
    REQUIRE(restore_format(kind, format->serialize(), restored) == Refusal::kOk);
    CHECK(restored->pending() == format->pending());
    CHECK(restored->standings() == format->standings());
    std::unique_ptr<Format> wrong;
    const FormatKind other = kind == FormatKind::kSwiss ? FormatKind::kArena : FormatKind::kSwiss;
    CHECK(restore_format(other, format->serialize(), wrong) == Refusal::kBadEncoding);
  }
}

TEST_CASE("tournaments: format: a knockout game's key is spent by its result, and a best of 3 "
          "plays on under a new key with the seats swapped") {
  FormatConfig config;
  config.kind = FormatKind::kKnockout;
  config.best_of = 3;
  auto knockout = with_players(config, 2);
  REQUIRE(knockout->start(0) == Refusal::kOk);
  std::vector<PendingGame> games = knockout->advance(0);
  REQUIRE(games.size() == 1);
  const PendingGame first = games[0];
  REQUIRE(knockout->record(first.key, kSeatZeroWins) == Refusal::kOk);
  CHECK(knockout->record(first.key, kSeatZeroWins) == Refusal::kResultTwice);
  games = knockout->advance(0);
  REQUIRE(games.size() == 1);
  CHECK(games[0].key != first.key);
  CHECK(games[0].seats[0] == first.seats[1]);
  // The first game's winner, now in seat 1, wins again: the match is theirs.
  REQUIRE(knockout->record(games[0].key, {2, 1}) == Refusal::kOk);
  CHECK(knockout->over(0));
  CHECK(knockout->standings()[0].id == first.seats[0]);
  CHECK(knockout->standings()[0].wins == 2);
}

TEST_CASE("tournaments: format: an arena wakes its director at its end and is over once the "
          "games running then are reported") {
  FormatConfig config;
  config.kind = FormatKind::kArena;
  config.duration_ms = 60'000;
  auto arena = with_players(config, 2, 0);
  REQUIRE(arena->start(500) == Refusal::kOk);
  CHECK(arena->wake_at_ms() == 60'500);
  std::vector<PendingGame> games = arena->advance(500);
  REQUIRE(games.size() == 1);
  CHECK(arena->advance(70'000).size() == 1);  // past the end: nothing new, the game still runs
  CHECK_FALSE(arena->over(70'000));
  REQUIRE(arena->record(games[0].key, kSeatZeroWins) == Refusal::kOk);
  CHECK(arena->advance(70'000).empty());
  CHECK(arena->over(70'000));
}
