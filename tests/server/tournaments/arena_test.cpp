// Arena rules: points and streaks, pairing from the waiting pool, the end, refusals, encoding,
// and a property run over thousands of random games: no one in two games, no one lost.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include "tournaments/arena.hpp"

using namespace duelhall::tournaments;

namespace {

const ArenaStanding& standing_of(const std::vector<ArenaStanding>& table, PlayerId id) {
  for (const ArenaStanding& standing : table) {
    if (standing.id == id) return standing;
  }
  FAIL("no standing");
  return table.front();
}

// Plays one game between the only two waiting players and returns its id.
GameId pair_two(ArenaTournament& arena, uint64_t now) {
  std::vector<GameId> games;
  REQUIRE(arena.pair_waiting(now, &games) == Refusal::kOk);
  REQUIRE(games.size() == 1);
  return games[0];
}

}  // namespace

TEST_CASE("tournaments: arena counts win 2, draw 1, and double wins after two in a row") {
  ArenaTournament arena(ArenaConfig{60000});
  REQUIRE(arena.add_player(1, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(2, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.start(0) == Refusal::kOk);
  auto win_for_1 = [&](GameId id) {
    const Game& game = *arena.ledger().game(id);
    return game.seats[0] == 1 ? Outcome::kFirstWins : Outcome::kSecondWins;
  };
  std::vector<int32_t> points;
  for (int i = 0; i < 4; ++i) {  // win, win, win (double), win (double)
    GameId id = pair_two(arena, 1);
    REQUIRE(arena.record_result(id, win_for_1(id)) == Refusal::kOk);
    points.push_back(standing_of(arena.standings(), 1).points);
  }
  CHECK(points == std::vector<int32_t>{2, 4, 8, 12});
  GameId draw = pair_two(arena, 1);
  REQUIRE(arena.record_result(draw, Outcome::kDraw) == Refusal::kOk);
  CHECK(standing_of(arena.standings(), 1).points == 13);  // a draw on fire: 1, streak over
  GameId again = pair_two(arena, 1);
  REQUIRE(arena.record_result(again, win_for_1(again)) == Refusal::kOk);
  CHECK(standing_of(arena.standings(), 1).points == 15);
  CHECK(standing_of(arena.standings(), 2).points == 1);
  CHECK(arena.standings() == arena.recount());
}

TEST_CASE("tournaments: arena pairs the nearest waiting player and avoids the last opponent") {
  ArenaTournament arena(ArenaConfig{60000});
  REQUIRE(arena.add_player(1, 2000, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(2, 1990, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(3, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(4, 1490, 0) == Refusal::kOk);
  CHECK(arena.pair_waiting(0) == Refusal::kNotStarted);
  REQUIRE(arena.start(0) == Refusal::kOk);
  std::vector<GameId> games;
  REQUIRE(arena.pair_waiting(0, &games) == Refusal::kOk);
  REQUIRE(games.size() == 2);
  std::set<PlayerId> first(arena.ledger().game(games[0])->seats.begin(),
                           arena.ledger().game(games[0])->seats.end());
  CHECK(first == std::set<PlayerId>{1, 2});  // nearest in rating
  CHECK(arena.playing(1));
  CHECK(arena.pair_waiting(0) == Refusal::kOk);  // nobody waits: nothing new
  CHECK(arena.ledger().games().size() == 2);
  REQUIRE(arena.record_result(games[0], Outcome::kDraw) == Refusal::kOk);
  CHECK(arena.record_result(games[0], Outcome::kDraw) == Refusal::kResultTwice);
  CHECK(arena.record_result(77, Outcome::kDraw) == Refusal::kUnknownMatch);
  // 1 and 2 wait, and only each other: they meet again rather than wait.
  games.clear();
  REQUIRE(arena.pair_waiting(1, &games) == Refusal::kOk);
  REQUIRE(games.size() == 1);
  REQUIRE(arena.record_result(games[0], Outcome::kFirstWins) == Refusal::kOk);
  REQUIRE(arena.record_result(1, Outcome::kDraw) == Refusal::kOk);  // 3 v 4
  // All four wait: 1 and 2 each skip their last opponent although they are nearest in rating.
  games.clear();
  REQUIRE(arena.pair_waiting(2, &games) == Refusal::kOk);
  REQUIRE(games.size() == 2);
  for (GameId id : games) {
    std::set<PlayerId> seats(arena.ledger().game(id)->seats.begin(),
                             arena.ledger().game(id)->seats.end());
    CHECK(seats != std::set<PlayerId>{1, 2});
  }
}

TEST_CASE("tournaments: arena stops pairing at its end and refuses changes after it") {
  ArenaTournament arena(ArenaConfig{1000, 2});
  REQUIRE(arena.add_player(1, 1500, 0) == Refusal::kOk);
  CHECK(arena.add_player(1, 1500, 0) == Refusal::kAlreadyJoined);
  REQUIRE(arena.start(0) == Refusal::kOk);
  CHECK(arena.start(0) == Refusal::kStarted);
  REQUIRE(arena.add_player(2, 1500, 10) == Refusal::kOk);  // late joiners are welcome
  CHECK(arena.add_player(3, 1500, 10) == Refusal::kFull);
  GameId game = pair_two(arena, 999);
  CHECK(arena.pair_waiting(1000) == Refusal::kFinished);
  CHECK(arena.withdraw(1, 1000) == Refusal::kFinished);
  REQUIRE(arena.record_result(game, Outcome::kFirstWins) == Refusal::kOk);  // a running game counts
  CHECK(arena.standings()[0].points == 2);
}

TEST_CASE("tournaments: arena property: no one in two games, no one lost, restore pairs the same") {
  std::mt19937_64 random(35);
  uint64_t games_played = 0;
  for (int trial = 0; trial < 20; ++trial) {
    uint32_t players = 2 + static_cast<uint32_t>(random() % 60);
    ArenaTournament arena(ArenaConfig{30 * 60 * 1000});
    for (uint32_t i = 1; i <= players; ++i) {
      REQUIRE(arena.add_player(i, 1000 + static_cast<int32_t>(random() % 1500), 0) ==
              Refusal::kOk);
    }
    REQUIRE(arena.start(0) == Refusal::kOk);
    std::multimap<uint64_t, GameId> ends;  // when each running game ends
    uint64_t now = 0;
    bool restored_once = false;
    while (true) {
      std::vector<GameId> games;
      if (arena.pair_waiting(now, &games) == Refusal::kOk) {
        for (GameId id : games) ends.emplace(now + 60000 + random() % 400000, id);
      }
      // Every active player is waiting or in exactly one running game.
      std::map<PlayerId, int> running;
      for (const Game& game : arena.ledger().games()) {
        if (game.reported()) continue;
        for (PlayerId seat : game.seats) CHECK(++running[seat] == 1);
      }
      std::vector<PlayerId> pool = arena.waiting();
      if (!arena.finished(now)) CHECK(pool.size() <= 1);
      for (const Player& player : arena.ledger().players()) {
        bool waits = std::count(pool.begin(), pool.end(), player.id) == 1;
        if (player.active()) CHECK(waits != (running[player.id] == 1));
      }
      if (!restored_once && now > 10 * 60 * 1000) {
        restored_once = true;
        ArenaTournament restored;
        REQUIRE(ArenaTournament::restore(arena.serialize(), restored) == Refusal::kOk);
        CHECK(restored == arena);
        CHECK(restored.standings() == arena.standings());
      }
      if (ends.empty()) break;
      auto next = ends.begin();
      now = next->first;
      Outcome outcome = static_cast<Outcome>(random() % 3);
      REQUIRE(arena.record_result(next->second, outcome) == Refusal::kOk);
      ++games_played;
      ends.erase(next);
      if (random() % 50 == 0) (void)arena.withdraw(1 + random() % players, now);
    }
    CHECK(arena.standings() == arena.recount());
  }
  CHECK(games_played > 1000);
}
