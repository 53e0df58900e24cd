// Arena rules: points and streaks, pairing from the waiting pool, the end, refusals, encoding,
// and a property run over thousands of random games: no one in two games, no one lost.
#include <catch2/catch.hpp>

#include <map>
#include <optional>
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
  // 1 and 2 wait, and only each other: they wait for someone else, at most the rematch wait.
  games.clear();
  REQUIRE(arena.pair_waiting(1000, &games) == Refusal::kOk);
  CHECK(games.empty());
  CHECK(arena.retry_at_ms() == std::optional<uint64_t>{1000 + 15000});
  REQUIRE(arena.pair_waiting(15999, &games) == Refusal::kOk);
  CHECK(games.empty());
  REQUIRE(arena.pair_waiting(16000, &games) == Refusal::kOk);  // the wait is over
  REQUIRE(games.size() == 1);
  CHECK_FALSE(arena.retry_at_ms());
  REQUIRE(arena.record_result(games[0], Outcome::kFirstWins) == Refusal::kOk);
  REQUIRE(arena.record_result(1, Outcome::kDraw) == Refusal::kOk);  // 3 v 4
  // All four wait: 1 and 2 each skip their last opponent although they are nearest in rating.
  games.clear();
  REQUIRE(arena.pair_waiting(17000, &games) == Refusal::kOk);
  REQUIRE(games.size() == 2);
  for (GameId id : games) {
    std::set<PlayerId> seats(arena.ledger().game(id)->seats.begin(),
                             arena.ledger().game(id)->seats.end());
    CHECK(seats != std::set<PlayerId>{1, 2});
  }
}

TEST_CASE("tournaments: arena finishers wait for the next finisher rather than meet again") {
  ArenaTournament arena(ArenaConfig{60 * 60 * 1000});
  for (PlayerId id = 1; id <= 4; ++id) REQUIRE(arena.add_player(id, 2000, 0) == Refusal::kOk);
  REQUIRE(arena.start(0) == Refusal::kOk);
  std::vector<GameId> games;
  REQUIRE(arena.pair_waiting(0, &games) == Refusal::kOk);  // 1 v 2 and 3 v 4
  REQUIRE(games.size() == 2);
  REQUIRE(arena.record_result(games[0], Outcome::kDraw) == Refusal::kOk);
  std::vector<GameId> next;
  REQUIRE(arena.pair_waiting(60000, &next) == Refusal::kOk);
  CHECK(next.empty());
  CHECK(arena.waiting().size() == 2);
  CHECK(arena.retry_at_ms() == std::optional<uint64_t>{75000});
  REQUIRE(arena.record_result(games[1], Outcome::kDraw) == Refusal::kOk);
  REQUIRE(arena.pair_waiting(70000, &next) == Refusal::kOk);  // within the wait: new opponents
  REQUIRE(next.size() == 2);
  CHECK_FALSE(arena.retry_at_ms());
  for (GameId id : next) {
    const Game& game = *arena.ledger().game(id);
    CHECK(std::set<PlayerId>(game.seats.begin(), game.seats.end()) != std::set<PlayerId>{1, 2});
    CHECK(std::set<PlayerId>(game.seats.begin(), game.seats.end()) != std::set<PlayerId>{3, 4});
  }
}

TEST_CASE("tournaments: arena with only two players left pairs the rematch at once") {
  ArenaTournament arena(ArenaConfig{60 * 60 * 1000});
  for (PlayerId id = 1; id <= 3; ++id) REQUIRE(arena.add_player(id, 2000, 0) == Refusal::kOk);
  REQUIRE(arena.start(0) == Refusal::kOk);
  REQUIRE(arena.withdraw(3, 0) == Refusal::kOk);
  GameId first = pair_two(arena, 0);
  REQUIRE(arena.record_result(first, Outcome::kFirstWins) == Refusal::kOk);
  GameId again = pair_two(arena, 1);
  CHECK(std::set<PlayerId>(arena.ledger().game(again)->seats.begin(),
                           arena.ledger().game(again)->seats.end()) == std::set<PlayerId>{1, 2});
}

TEST_CASE("tournaments: arena encoding keeps the rematch wait and reads version 1") {
  ArenaTournament arena(ArenaConfig{60000, 8, 4000});
  REQUIRE(arena.add_player(1, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(2, 1600, 0) == Refusal::kOk);
  REQUIRE(arena.start(0) == Refusal::kOk);
  GameId game = pair_two(arena, 0);
  REQUIRE(arena.record_result(game, Outcome::kSecondWins) == Refusal::kOk);
  ArenaTournament restored;
  REQUIRE(ArenaTournament::restore(arena.serialize(), restored) == Refusal::kOk);
  CHECK(restored == arena);
  std::string version_1 = arena.serialize();
  version_1.replace(version_1.find("arena 2"), 7, "arena 1");
  version_1.erase(version_1.find("rematch_wait_ms 4000\n"), 21);
  version_1.erase(version_1.find("min_players 0\n"), 14);
  REQUIRE(ArenaTournament::restore(version_1, restored) == Refusal::kOk);
  CHECK(restored.standings() == arena.standings());
  CHECK_FALSE(restored == arena);  // the default wait, 15 s
  std::string no_wait = arena.serialize();
  no_wait.erase(no_wait.find("rematch_wait_ms 4000\n"), 21);
  CHECK(ArenaTournament::restore(no_wait, restored) == Refusal::kBadEncoding);
}

TEST_CASE("tournaments: arena refuses to start below its minimum of players") {
  ArenaTournament arena(ArenaConfig{60000, 0, 15000, 3});
  REQUIRE(arena.add_player(1, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(2, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.add_player(3, 1500, 0) == Refusal::kOk);
  REQUIRE(arena.withdraw(3, 0) == Refusal::kOk);
  CHECK(arena.start(0) == Refusal::kTooFewPlayers);
  CHECK_FALSE(arena.started());
  REQUIRE(arena.add_player(4, 1500, 0) == Refusal::kOk);
  CHECK(arena.start(0) == Refusal::kOk);
  ArenaTournament restored;
  REQUIRE(ArenaTournament::restore(arena.serialize(), restored) == Refusal::kOk);
  CHECK(restored == arena);
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

TEST_CASE("tournaments: arena property: no one in two games, no one lost, rematches rare") {
  constexpr uint64_t kWait = 30000;  // about what Lichess waits for games of 1 to 8 minutes
  std::mt19937_64 random(35);
  uint64_t games_played = 0, rematches = 0, big_field_games = 0, big_field_rematches = 0;
  for (int trial = 0; trial < 20; ++trial) {
    uint32_t players = 2 + static_cast<uint32_t>(random() % 60);
    ArenaTournament arena(ArenaConfig{30 * 60 * 1000, 0, kWait});
    for (uint32_t i = 1; i <= players; ++i) {
      REQUIRE(arena.add_player(i, 1000 + static_cast<int32_t>(random() % 1500), 0) == Refusal::kOk);
    }
    REQUIRE(arena.start(0) == Refusal::kOk);
    std::multimap<uint64_t, GameId> ends;  // when each running game ends
    std::map<PlayerId, PlayerId> last_opponent;
    std::map<PlayerId, uint64_t> finished_at;
    uint64_t now = 0;
    bool restored_once = false;
    while (true) {
      std::vector<GameId> games;
      if (arena.pair_waiting(now, &games) == Refusal::kOk) {
        size_t active = 0;
        for (const Player& player : arena.ledger().players()) active += player.active() ? 1 : 0;
        for (GameId id : games) {
          ends.emplace(now + 60000 + random() % 400000, id);
          const Game& game = *arena.ledger().game(id);
          bool rematch =
              last_opponent.count(game.seats[0]) && last_opponent[game.seats[0]] == game.seats[1];
          // A rematch only once the wait is over, or with no one else left to play.
          if (rematch) CHECK((active == 2 || now >= finished_at[game.seats[0]] + kWait));
          rematches += rematch ? 1 : 0;
          if (players >= 40) big_field_rematches += rematch ? 1 : 0;
        }
        // Left waiting: one player at most, or two who just met, until their wait ends.
        std::vector<PlayerId> pool = arena.waiting();
        if (pool.size() == 2) {
          CHECK(last_opponent[pool[0]] == pool[1]);
          CHECK(arena.retry_at_ms() == std::optional<uint64_t>{finished_at[pool[0]] + kWait});
        } else {
          CHECK(pool.size() <= 1);
          CHECK_FALSE(arena.retry_at_ms());
        }
      }
      // Every active player is waiting or in exactly one running game.
      std::map<PlayerId, int> running;
      for (const Game& game : arena.ledger().games()) {
        if (game.reported()) continue;
        for (PlayerId seat : game.seats) CHECK(++running[seat] == 1);
      }
      std::vector<PlayerId> pool = arena.waiting();
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
      // The next event: a result, or the end of a held-back rematch's wait.
      std::optional<uint64_t> retry = arena.retry_at_ms();
      if (ends.empty() && !retry) break;
      if (retry && (ends.empty() || *retry < ends.begin()->first)) {
        now = *retry;
        continue;
      }
      auto next = ends.begin();
      now = next->first;
      const Game& game = *arena.ledger().game(next->second);
      for (size_t seat = 0; seat < 2; ++seat) {
        last_opponent[game.seats[seat]] = game.seats[1 - seat];
        finished_at[game.seats[seat]] = now;
      }
      Outcome outcome = static_cast<Outcome>(random() % 3);
      REQUIRE(arena.record_result(next->second, outcome) == Refusal::kOk);
      ++games_played;
      if (players >= 40) ++big_field_games;
      ends.erase(next);
      if (random() % 50 == 0) (void)arena.withdraw(1 + random() % players, now);
    }
    CHECK(arena.standings() == arena.recount());
  }
  CHECK(games_played > 1000);
  // Before finishers waited, this run paired 618 of 1,570 games in fields of 40 or more (948 of
  // 2,343 in all) against the last opponent; with a 30 s wait, 27 of 1,527 (101 of 2,518).
  INFO("rematches " << rematches << " of " << games_played << "; fields of 40 or more: "
                    << big_field_rematches << " of " << big_field_games);
  CHECK(big_field_games > 500);
  CHECK(big_field_rematches * 100 < big_field_games * 3);
  CHECK(rematches * 100 < games_played * 10);
}
