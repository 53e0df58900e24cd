// Knockout rules: the seeding order, byes to the top seeds, best-of-3, walkovers, refusals,
// the encoding, and complete brackets for every field of 2 to 300 players.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "tournaments/knockout.hpp"

using namespace duelhall::tournaments;

namespace {

// Players 1..n, player i rated so that it is seed i.
KnockoutTournament field(uint32_t players, KnockoutConfig config = {}) {
  KnockoutTournament knockout(config);
  for (uint32_t i = 1; i <= players; ++i) {
    REQUIRE(knockout.add_player(i, 3000 - static_cast<int32_t>(i)) == Refusal::kOk);
  }
  return knockout;
}

// Plays every ready match until the bracket ends; `first_wins(match)` picks each game.
template <typename Pick>
void play_out(KnockoutTournament& knockout, Pick pick) {
  for (int guard = 0; !knockout.finished() && guard < 100000; ++guard) {
    std::vector<MatchId> ready = knockout.pairings();
    REQUIRE_FALSE(ready.empty());
    for (MatchId id : ready)
      REQUIRE(knockout.record_game(id, pick(knockout.matches()[id])) == Refusal::kOk);
  }
  REQUIRE(knockout.finished());
}

Outcome higher_seed_wins(const KnockoutMatch& match) {
  return match.first < match.second ? Outcome::kFirstWins : Outcome::kSecondWins;
}

}  // namespace

TEST_CASE("tournaments: knockout bracket order puts 1 v N and top seeds in opposite halves") {
  CHECK(bracket_order(8) == std::vector<int32_t>{1, 8, 4, 5, 2, 7, 3, 6});
  KnockoutTournament knockout = field(8);
  REQUIRE(knockout.start() == Refusal::kOk);
  REQUIRE(knockout.pairings().size() == 4);
  CHECK(knockout.matches()[0].first == 1);
  CHECK(knockout.matches()[0].second == 8);
  play_out(knockout, higher_seed_wins);
  const KnockoutMatch& final_match = knockout.matches().back();
  CHECK(final_match.first == 1);
  CHECK(final_match.second == 2);
  CHECK(knockout.champion() == PlayerId{1});
  CHECK(knockout.standings().front().id == 1);
  CHECK(knockout.standings()[1].id == 2);
}

TEST_CASE("tournaments: knockout standings give each player's round reached and who put them out") {
  KnockoutTournament knockout = field(8);
  CHECK(knockout.standings().empty());  // nobody is seeded before the start
  REQUIRE(knockout.start() == Refusal::kOk);
  // Quarter-finals 1 v 8, 4 v 5, 2 v 7, 3 v 6: play the first two only, the higher seed winning.
  REQUIRE(knockout.record_game(0, Outcome::kFirstWins) == Refusal::kOk);
  REQUIRE(knockout.record_game(1, Outcome::kSecondWins) == Refusal::kOk);  // 5 beats 4
  std::vector<KnockoutStanding> table = knockout.standings();
  std::vector<PlayerId> order;
  for (const KnockoutStanding& row : table) order.push_back(row.id);
  // Through to the semi-final first, then those still to play their quarter-final, then those out.
  CHECK(order == std::vector<PlayerId>{1, 5, 2, 3, 6, 7, 4, 8});
  CHECK(table[0] == KnockoutStanding{1, 1, 2, 0, std::nullopt, false});
  CHECK(table[2] == KnockoutStanding{2, 2, 1, 0, std::nullopt, false});
  CHECK(table[6] == KnockoutStanding{4, 4, 1, 5, PlayerId{5}, false});
  CHECK(table[7] == KnockoutStanding{8, 8, 1, 5, PlayerId{1}, false});
  REQUIRE(knockout.disqualify(7) == Refusal::kOk);  // 2 goes through by walkover
  REQUIRE(knockout.record_game(3, Outcome::kFirstWins) == Refusal::kOk);   // 3 beats 6
  REQUIRE(knockout.record_game(4, Outcome::kFirstWins) == Refusal::kOk);   // 1 beats 5
  REQUIRE(knockout.record_game(5, Outcome::kFirstWins) == Refusal::kOk);   // 2 beats 3
  REQUIRE(knockout.record_game(6, Outcome::kSecondWins) == Refusal::kOk);  // 2 beats 1
  table = knockout.standings();
  order.clear();
  for (const KnockoutStanding& row : table) order.push_back(row.id);
  CHECK(order == std::vector<PlayerId>{2, 1, 3, 5, 4, 6, 7, 8});
  CHECK(table[0] == KnockoutStanding{2, 2, 3, 1, std::nullopt, false});
  CHECK(table[1] == KnockoutStanding{1, 1, 3, 2, PlayerId{2}, false});
  CHECK(table[2] == KnockoutStanding{3, 3, 2, 3, PlayerId{2}, false});
  CHECK(table[3] == KnockoutStanding{5, 5, 2, 3, PlayerId{1}, false});
  CHECK(table[6] == KnockoutStanding{7, 7, 1, 5, PlayerId{2}, true});
}

TEST_CASE("tournaments: knockout standings count a bye's round as reached") {
  KnockoutTournament knockout = field(5);
  REQUIRE(knockout.start() == Refusal::kOk);
  // Seeds 1, 2 and 3 have byes; 2 v 3 is ready in round 2, 4 v 5 in round 1.
  std::vector<KnockoutStanding> table = knockout.standings();
  CHECK(table[0].id == 1);
  CHECK(table[0].round_reached == 2);
  CHECK(table[3].id == 4);
  CHECK(table[3].round_reached == 1);
  CHECK(table[3].place == 0);
}

TEST_CASE("tournaments: knockout gives the byes to the top seeds") {
  KnockoutTournament knockout = field(5);
  REQUIRE(knockout.start() == Refusal::kOk);
  // 8 slots, 3 byes: seeds 1, 2 and 3 go through; 4 v 5 is the only first-round match, and
  // 2 v 3 of the second round is ready at once.
  std::vector<MatchId> ready = knockout.pairings();
  REQUIRE(ready.size() == 2);
  CHECK(knockout.matches()[ready[0]].first == 4);
  CHECK(knockout.matches()[ready[0]].second == 5);
  CHECK(knockout.matches()[ready[1]].round == 2);
  CHECK(knockout.matches()[ready[1]].first == 2);
  CHECK(knockout.matches()[ready[1]].second == 3);
  int byes = 0;
  for (const KnockoutMatch& match : knockout.matches()) {
    if (match.round == 1 && match.walkover) {
      ++byes;
      CHECK(match.winner <= 3);
    }
  }
  CHECK(byes == 3);
}

TEST_CASE("tournaments: knockout best of 3 needs two wins and replays draws") {
  KnockoutTournament knockout = field(2, KnockoutConfig{0, 3});
  REQUIRE(knockout.start() == Refusal::kOk);
  REQUIRE(knockout.record_game(0, Outcome::kFirstWins) == Refusal::kOk);
  REQUIRE(knockout.record_game(0, Outcome::kDraw) == Refusal::kOk);
  REQUIRE(knockout.record_game(0, Outcome::kSecondWins) == Refusal::kOk);
  CHECK_FALSE(knockout.finished());
  REQUIRE(knockout.record_game(0, Outcome::kSecondWins) == Refusal::kOk);
  CHECK(knockout.champion() == PlayerId{2});
  CHECK(knockout.matches()[0].draws == 1);
  CHECK(knockout.record_game(0, Outcome::kFirstWins) == Refusal::kResultTwice);
  CHECK(knockout.withdraw(1) == Refusal::kFinished);
}

TEST_CASE("tournaments: knockout best of 3 alternates the first seat, draws included") {
  KnockoutTournament knockout = field(4, KnockoutConfig{0, 3});
  REQUIRE(knockout.start() == Refusal::kOk);
  using Seats = std::optional<std::pair<PlayerId, PlayerId>>;
  // The semi-finals 1 v 4 and 2 v 3: the higher seed sits first in the first game.
  CHECK(knockout.next_game_seats(0) == Seats{{1, 4}});
  CHECK(knockout.next_game_seats(1) == Seats{{2, 3}});
  CHECK(knockout.next_game_seats(2) == std::nullopt);  // the final: not ready
  CHECK(knockout.next_game_seats(9) == std::nullopt);
  REQUIRE(knockout.record_game(0, Outcome::kDraw) == Refusal::kOk);
  CHECK(knockout.next_game_seats(0) == Seats{{4, 1}});
  REQUIRE(knockout.record_game(0, Outcome::kFirstWins) == Refusal::kOk);  // 1 wins one
  CHECK(knockout.next_game_seats(0) == Seats{{1, 4}});
  REQUIRE(knockout.record_game(0, Outcome::kFirstWins) == Refusal::kOk);  // and the match
  CHECK(knockout.next_game_seats(0) == std::nullopt);
}

TEST_CASE("tournaments: knockout waits for its minimum of players and reads version 1") {
  KnockoutTournament knockout = field(3, KnockoutConfig{0, 1, 4});
  CHECK(knockout.start() == Refusal::kTooFewPlayers);
  CHECK_FALSE(knockout.started());
  REQUIRE(knockout.add_player(4, 1500) == Refusal::kOk);
  REQUIRE(knockout.start() == Refusal::kOk);
  KnockoutTournament restored;
  REQUIRE(KnockoutTournament::restore(knockout.serialize(), restored) == Refusal::kOk);
  CHECK(restored == knockout);
  std::string version_1 = knockout.serialize();
  version_1.replace(version_1.find("knockout 2"), 10, "knockout 1");
  version_1.erase(version_1.find("min_players 4\n"), 14);
  REQUIRE(KnockoutTournament::restore(version_1, restored) == Refusal::kOk);
  CHECK(restored.matches() == knockout.matches());
  CHECK_FALSE(restored == knockout);  // no minimum in version 1
}

TEST_CASE("tournaments: knockout walkovers for the withdrawn and refusals") {
  KnockoutTournament knockout = field(4, KnockoutConfig{4});
  CHECK(knockout.add_player(1, 1500) == Refusal::kAlreadyJoined);
  CHECK(knockout.add_player(9, 1500) == Refusal::kFull);
  CHECK(knockout.record_game(0, Outcome::kDraw) == Refusal::kUnknownMatch);
  REQUIRE(knockout.start() == Refusal::kOk);
  CHECK(knockout.start() == Refusal::kStarted);
  CHECK(knockout.add_player(9, 1500) == Refusal::kStarted);
  CHECK(knockout.record_game(2, Outcome::kDraw) == Refusal::kUnknownMatch);  // the final, not ready
  REQUIRE(knockout.disqualify(4) == Refusal::kOk);  // 1 v 4: 1 goes through
  CHECK(knockout.matches()[0].winner == 1);
  CHECK(knockout.matches()[0].walkover);
  CHECK(knockout.disqualify(4) == Refusal::kAlreadyLeft);
  REQUIRE(knockout.withdraw(1) == Refusal::kOk);  // then 1 loses the final by walkover
  REQUIRE(knockout.record_game(1, Outcome::kSecondWins) == Refusal::kOk);  // 2 v 3: 3 wins
  CHECK(knockout.champion() == PlayerId{3});
}

TEST_CASE("tournaments: knockout property: complete brackets for 2 to 300 players") {
  std::mt19937_64 random(35);
  for (uint32_t players = 2; players <= 300; ++players) {
    KnockoutTournament knockout = field(players, KnockoutConfig{0, players % 2 == 0 ? 3u : 1u});
    REQUIRE(knockout.start() == Refusal::kOk);
    if (players % 7 == 0) REQUIRE(knockout.withdraw(1 + random() % players) == Refusal::kOk);
    bool restored_once = false;
    for (int guard = 0; !knockout.finished() && guard < 100000; ++guard) {
      if (!restored_once && guard == 2) {
        restored_once = true;
        KnockoutTournament restored;
        REQUIRE(KnockoutTournament::restore(knockout.serialize(), restored) == Refusal::kOk);
        REQUIRE(restored == knockout);
        CHECK(restored.pairings() == knockout.pairings());
      }
      for (MatchId id : knockout.pairings()) {
        REQUIRE(knockout.record_game(id, static_cast<Outcome>(random() % 3)) == Refusal::kOk);
      }
    }
    REQUIRE(knockout.finished());
    std::map<int32_t, int> losses;
    for (const KnockoutMatch& match : knockout.matches()) {
      REQUIRE(match.winner != 0);
      REQUIRE(match.winner != -1);
      REQUIRE((match.winner == match.first || match.winner == match.second));
      bool final_match = match.round == knockout.rounds();
      if (!final_match)
        CHECK_FALSE(
            ((match.first == 1 && match.second == 2) || (match.first == 2 && match.second == 1)));
      int32_t loser = match.winner == match.first ? match.second : match.first;
      if (loser > 0) ++losses[loser];
    }
    // One champion: everyone else lost exactly once; the champion never.
    CHECK(losses.size() == players - 1);
    for (const auto& entry : losses) CHECK(entry.second == 1);
    CHECK(losses.count(knockout.matches().back().winner) == 0);
    // The standings: one champion; everyone else out in the round they reached, by its winner.
    std::vector<KnockoutStanding> table = knockout.standings();
    REQUIRE(table.size() == players);
    CHECK(table.front().place == 1);
    CHECK(table.front().id == *knockout.champion());
    CHECK(table.front().round_reached == knockout.rounds());
    std::map<uint32_t, uint32_t> at_place;
    for (size_t i = 1; i < table.size(); ++i) {
      const KnockoutStanding& row = table[i];
      REQUIRE(row.eliminated_by.has_value());
      CHECK(row.place == (1u << (knockout.rounds() - row.round_reached)) + 1);
      CHECK(row.round_reached <= table[i - 1].round_reached);
      ++at_place[row.place];
    }
    for (const auto& [place, count] : at_place) CHECK(count <= std::max(1u, place - 1));
    CHECK(at_place[2] == 1);
  }
}

TEST_CASE("tournaments: knockout property: seeds 1 and 2 meet in the final when both win") {
  for (uint32_t players = 2; players <= 300; ++players) {
    KnockoutTournament knockout = field(players);
    REQUIRE(knockout.start() == Refusal::kOk);
    play_out(knockout, higher_seed_wins);
    const KnockoutMatch& final_match = knockout.matches().back();
    CHECK(std::min(final_match.first, final_match.second) == 1);
    CHECK(std::max(final_match.first, final_match.second) == 2);
  }
}
