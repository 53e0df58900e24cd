// Swiss rules, one scenario each: pairing, byes, repeats, first seats, tiebreaks, refusals,
// multi-seat tables and the encoding.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "tournaments/swiss.hpp"

using namespace duelhall::tournaments;

namespace {

SwissTournament field(uint32_t players, SwissConfig config = {}) {
  SwissTournament swiss(config);
  for (uint32_t i = 1; i <= players; ++i) REQUIRE(swiss.add_player(i, 2000 - 10 * int(i)) == Refusal::kOk);
  return swiss;
}

const Game& game(const SwissTournament& swiss, GameId id) { return *swiss.ledger().game(id); }

}  // namespace

TEST_CASE("tournaments: Swiss round 1 pairs the top half against the bottom half by rating") {
  SwissTournament swiss = field(8);
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  REQUIRE(games.size() == 4);
  // Seeds 1..8 by rating: 1 v 5, 2 v 6, 3 v 7, 4 v 8, first seats alternating from the top.
  CHECK(game(swiss, games[0]).seats == std::vector<PlayerId>{1, 5});
  CHECK(game(swiss, games[1]).seats == std::vector<PlayerId>{6, 2});
  CHECK(game(swiss, games[2]).seats == std::vector<PlayerId>{3, 7});
  CHECK(game(swiss, games[3]).seats == std::vector<PlayerId>{8, 4});
}

TEST_CASE("tournaments: Swiss pairs within score groups and gives the bye to the lowest") {
  SwissTournament swiss = field(5);
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  // 1 v 3, 2 v 4 (or seated the other way round), 5 has the bye.
  REQUIRE(games.size() == 3);
  CHECK(game(swiss, games[2]).seats == std::vector<PlayerId>{5});
  CHECK(swiss.ledger().points(5) == 2);  // a bye is a win
  for (GameId id : {games[0], games[1]}) {
    // The higher-rated (lower id) wins both.
    const Game& g = game(swiss, id);
    REQUIRE(swiss.record_result(id, g.seats[0] < g.seats[1] ? Outcome::kFirstWins
                                                          : Outcome::kSecondWins) == Refusal::kOk);
  }
  games.clear();
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  // 1, 2 and 5 (the bye) hold 1 point, 3 and 4 none. The bye goes to 4 (lowest, none yet); the
  // group {1, 2, 5} is odd, and 3 met 1: one of the group floats down a whole point to meet 3.
  const SwissPairing& pairing = swiss.last_pairing();
  REQUIRE(pairing.bye);
  CHECK(*pairing.bye == 4);
  CHECK(pairing.score_gap == 2);
  CHECK_FALSE(pairing.repeats_forced);
}

TEST_CASE("tournaments: Swiss avoids a repeat by floating when the group cannot pair inside") {
  SwissTournament swiss = field(4);
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);  // 1 v 3, 2 v 4
  REQUIRE(swiss.record_result(games[0], Outcome::kDraw) == Refusal::kOk);
  REQUIRE(swiss.record_result(games[1], Outcome::kDraw) == Refusal::kOk);
  games.clear();
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  for (GameId id : games) {
    auto seats = game(swiss, id).seats;
    std::sort(seats.begin(), seats.end());
    CHECK(seats != std::vector<PlayerId>{1, 3});
    CHECK(seats != std::vector<PlayerId>{2, 4});
  }
}

TEST_CASE("tournaments: Swiss gives the first seat to the player who had it less") {
  SwissTournament swiss = field(4, SwissConfig{3});
  for (int round = 0; round < 3; ++round) {
    std::vector<GameId> games;
    REQUIRE(swiss.next_round(&games) == Refusal::kOk);
    for (GameId id : games) REQUIRE(swiss.record_result(id, Outcome::kDraw) == Refusal::kOk);
  }
  std::map<PlayerId, int> balance;
  for (const Game& g : swiss.ledger().games()) {
    ++balance[g.seats[0]];
    --balance[g.seats[1]];
  }
  for (const auto& [id, value] : balance) CHECK(std::abs(value) <= 1);
}

TEST_CASE("tournaments: Swiss tiebreaks are Buchholz cut 1, then Sonneborn-Berger, then rating") {
  // A hand-made ledger: 4 players, 2 rounds.
  SwissTournament swiss = field(4, SwissConfig{2});
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);  // 1 v 3, 4 v 2 (seats)
  REQUIRE(swiss.record_result(games[0], Outcome::kFirstWins) == Refusal::kOk);   // 1 beats 3
  REQUIRE(swiss.record_result(games[1], Outcome::kFirstWins) == Refusal::kOk);   // 4 beats 2
  games.clear();
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);  // 1 v 4, 3 v 2 in some seats
  for (GameId id : games) REQUIRE(swiss.record_result(id, Outcome::kDraw) == Refusal::kOk);
  std::vector<Standing> table = swiss.standings();
  REQUIRE(table.size() == 4);
  // 1 and 4 have 1.5; Buchholz cut 1: 1 met 3 (0.5) and 4 (1.5) -> 1.5; 4 met 2 (0.5) and 1
  // (1.5) -> 1.5. Sonneborn-Berger: 1: 3's 0.5 x win + 4's 1.5 x half = 1.25; 4: 2's 0.5 + 1's
  // 1.5 x half = 1.25. Equal: rating decides, 1 first.
  CHECK(table[0].id == 1);
  CHECK(table[0].points == 3);
  CHECK(table[0].buchholz_cut1 == 3);
  CHECK(table[0].sonneborn_berger == 2 * 1 + 3 * 1);  // quarter-points: 0.5*1 + 1.5*0.5 = 1.25
  CHECK(table[1].id == 4);
  CHECK(table[1].sonneborn_berger == table[0].sonneborn_berger);
  CHECK(table[2].id == 2);  // 0.5 each for 2 and 3: equal tiebreaks, 2 rated higher
  CHECK(table[3].id == 3);
}

TEST_CASE("tournaments: Swiss refuses joining twice, joining full or started, double results") {
  SwissTournament swiss(SwissConfig{2, 3});
  REQUIRE(swiss.add_player(1, 1500) == Refusal::kOk);
  CHECK(swiss.add_player(1, 1500) == Refusal::kAlreadyJoined);
  CHECK(swiss.next_round() == Refusal::kTooFewPlayers);
  REQUIRE(swiss.add_player(2, 1500) == Refusal::kOk);
  REQUIRE(swiss.add_player(3, 1500) == Refusal::kOk);
  CHECK(swiss.add_player(4, 1500) == Refusal::kFull);
  CHECK(swiss.withdraw(9) == Refusal::kUnknownPlayer);
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  CHECK(swiss.add_player(5, 1500) == Refusal::kStarted);
  CHECK(swiss.next_round() == Refusal::kRoundUnfinished);
  CHECK(swiss.record_result(99, Outcome::kDraw) == Refusal::kUnknownMatch);
  REQUIRE(swiss.record_result(games[0], Outcome::kDraw) == Refusal::kOk);
  CHECK(swiss.record_result(games[0], Outcome::kFirstWins) == Refusal::kResultTwice);
  CHECK(swiss.record_result(games[1], Outcome::kDraw) == Refusal::kResultTwice);  // the bye
  CHECK(swiss.record_places(games[0], {1, 1}) == Refusal::kResultTwice);
  REQUIRE(swiss.withdraw(3) == Refusal::kOk);
  CHECK(swiss.withdraw(3) == Refusal::kAlreadyLeft);
  CHECK(swiss.disqualify(3) == Refusal::kAlreadyLeft);
  games.clear();
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  REQUIRE(games.size() == 1);  // 3 withdrew: 1 v 2 only
  REQUIRE(swiss.record_result(games[0], Outcome::kFirstWins) == Refusal::kOk);
  CHECK(swiss.finished());
  CHECK(swiss.next_round() == Refusal::kFinished);
  CHECK(swiss.withdraw(1) == Refusal::kFinished);
  CHECK(swiss.add_player(7, 1500) == Refusal::kFinished);
}

TEST_CASE("tournaments: Swiss tables cut the score order into tables and score by place") {
  SwissTournament swiss = field(7, SwissConfig{2, 0, 6});
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  REQUIRE(games.size() == 2);
  CHECK(game(swiss, games[0]).seats == std::vector<PlayerId>{1, 2, 3, 4});
  CHECK(game(swiss, games[1]).seats == std::vector<PlayerId>{5, 6, 7});
  CHECK(swiss.record_result(games[0], Outcome::kDraw) == Refusal::kBadResult);
  CHECK(swiss.record_places(games[0], {1, 2, 2, 2}) == Refusal::kOk);
  CHECK(swiss.record_places(games[1], {1, 1, 2}) == Refusal::kBadResult);  // not "1 1 3"
  REQUIRE(swiss.record_places(games[1], {3, 1, 1}) == Refusal::kOk);
  CHECK(swiss.ledger().points(1) == 6);  // first of 4: 3 points
  CHECK(swiss.ledger().points(2) == 2);  // tied for 2nd of 4 with two: (2+1+0)/3 = 1 point
  CHECK(swiss.ledger().points(6) == 3);  // tied first of 3: (2+1)/2 = 1.5
  CHECK(swiss.ledger().points(5) == 0);
  games.clear();
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  // Scores now 1:3, 6:1.5, 7:1.5, 2:1, 3:1, 4:1, 5:0; table 1 = the top four, first seat to a
  // player who has not had one (6, 7, 2 by rank, then 1 who had it).
  CHECK(game(swiss, games[0]).seats == std::vector<PlayerId>{6, 7, 2, 1});
  CHECK(game(swiss, games[1]).seats == std::vector<PlayerId>{3, 4, 5});
  CHECK(swiss.standings()[0].id == 1);
}

TEST_CASE("tournaments: Swiss restores from its encoding and refuses a damaged one") {
  SwissTournament swiss = field(9, SwissConfig{4});
  std::vector<GameId> games;
  REQUIRE(swiss.next_round(&games) == Refusal::kOk);
  REQUIRE(swiss.record_result(games[0], Outcome::kSecondWins) == Refusal::kOk);
  REQUIRE(swiss.withdraw(9) == Refusal::kOk);
  std::string text = swiss.serialize();
  SwissTournament restored;
  REQUIRE(SwissTournament::restore(text, restored) == Refusal::kOk);
  CHECK(restored == swiss);
  CHECK(restored.serialize() == text);
  SwissTournament untouched;
  CHECK(SwissTournament::restore(text.substr(0, text.size() - 5), untouched) ==
        Refusal::kBadEncoding);
  CHECK(SwissTournament::restore("duelhall-tournament arena 1\n", untouched) ==
        Refusal::kBadEncoding);
  std::string bad = text;
  bad.replace(bad.find("swiss 2"), 7, "swiss 3");
  CHECK(SwissTournament::restore(bad, untouched) == Refusal::kBadEncoding);
  CHECK(untouched == SwissTournament{});
}

TEST_CASE("tournaments: Swiss waits for its minimum of players and reads version 1") {
  SwissTournament swiss = field(3, SwissConfig{3, 0, 2, 4});
  CHECK(swiss.next_round() == Refusal::kTooFewPlayers);
  CHECK_FALSE(swiss.started());
  REQUIRE(swiss.add_player(4, 1500) == Refusal::kOk);
  REQUIRE(swiss.next_round() == Refusal::kOk);
  SwissTournament restored;
  REQUIRE(SwissTournament::restore(swiss.serialize(), restored) == Refusal::kOk);
  CHECK(restored == swiss);
  // Version 1, written before the minimum existed, reads with none.
  std::string version_1 = swiss.serialize();
  version_1.replace(version_1.find("swiss 2"), 7, "swiss 1");
  version_1.erase(version_1.find("min_players 4\n"), 14);
  REQUIRE(SwissTournament::restore(version_1, restored) == Refusal::kOk);
  CHECK(restored.config().min_players == 0);
  CHECK(restored.ledger() == swiss.ledger());
}
