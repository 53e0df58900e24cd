#include <catch2/catch.hpp>

#include "backends.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using testing::PostgresBackend;
using testing::SqliteBackend;

TEMPLATE_TEST_CASE(
    "accounts, sessions and ratings live in the match store's database and survive reopening",
    "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  storage::AccountId id = 0;
  {
    auto matches = backend.open_matches();
    auto accounts_ptr = backend.open_accounts();
    auto& accounts = *accounts_ptr;
    id = *accounts.create_account("Ann", "ann", "$argon2id$hash", 5);
    CHECK_FALSE(accounts.create_account("ANN", "ann", "$argon2id$other", 6));
    accounts.add_session("hash-of-token", id, 10, 1000);
    accounts.apply_ratings(1, "toy", {{0, id, 1500.0, 1520.0, 300.0}},
                           {{id, {"toy", 1520.0, 300.0, 0.06, 1, 10}}});
  }
  auto accounts_ptr = backend.open_accounts();
  auto& accounts = *accounts_ptr;
  CHECK(accounts.find_by_key("ann")->name == "Ann");
  CHECK(accounts.session_account("hash-of-token", 999) == id);
  CHECK_FALSE(accounts.session_account("hash-of-token", 1000));  // expired
  CHECK(accounts.rating(id, "toy")->rating == 1520.0);
}

TEMPLATE_TEST_CASE("an account's history: its ended matches, results, opponents and rating changes",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto matches_ptr = backend.open_matches();
  auto& matches = *matches_ptr;
  auto accounts_ptr = backend.open_accounts();
  auto& accounts = *accounts_ptr;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 3);
  REQUIRE(state->terminal());
  const auto match = testing::store_match(matches, *state, 3);
  const auto live = testing::store_match(matches, *testing::play_toy_match(registry, 4, 2), 4);
  const auto ann = *accounts.create_account("ann", "ann", "h", 1);
  const auto ben = *accounts.create_account("ben", "ben", "h", 1);
  accounts.record_seats(match, {{0, ann, {}, {}, {}}, {1, ben, {}, {}, {}}}, true);
  accounts.record_seats(live, {{0, ann, {}, {}, {}}}, false);
  CHECK(accounts.history(ann, 10, std::nullopt).empty());  // nothing has ended yet
  matches.finish_match(match, state->outcome(), 99);
  REQUIRE(accounts.apply_ratings(
      match, "toy", {{0, ann, 1500.0, 1600.0, 290.0}, {1, ben, 1500.0, 1400.0, 290.0}}, {}));
  CHECK_FALSE(accounts.apply_ratings(match, "toy", {}, {}));  // once only

  auto history = accounts.history(ann, 10, std::nullopt);
  REQUIRE(history.size() == 1);
  const auto& entry = history[0];
  CHECK(entry.match_id == match);
  CHECK(entry.rated);
  CHECK(entry.ended_ms == 99);
  CHECK(*entry.rating_after - *entry.rating_before == 100.0);
  const bool ann_won = state->outcome().winners.has(0);
  const bool ben_won = state->outcome().winners.has(1);
  CHECK(entry.result == (ann_won == ben_won ? "draw" : ann_won ? "win" : "loss"));
  REQUIRE(entry.opponents.size() == 1);
  CHECK(entry.opponents[0].name == "ben");  // the account's name, not the typed seat name

  accounts.delete_account(ben, 100);
  CHECK(accounts.history(ann, 10, std::nullopt)[0].opponents[0].name == "deleted player");
  CHECK(matches.load_match(match)->summary.names[1] == "deleted player");
  CHECK(accounts.history(ann, 10, match).empty());  // paging: older than the match
}

TEMPLATE_TEST_CASE("the leaderboard lists established ratings of a ruleset, best first, paged",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto accounts_ptr = backend.open_accounts();
  auto& accounts = *accounts_ptr;
  std::vector<storage::AccountId> ids;
  for (int i = 0; i < 5; ++i) {
    const std::string name = std::string(1, 'p').append(std::to_string(i));
    ids.push_back(*accounts.create_account(name, name, "h", 1));
  }
  const double ratings[] = {1500, 1800, 1650, 1700, 2000};
  const double deviations[] = {60, 60, 60, 60, 200};  // the last is provisional
  for (int i = 0; i < 5; ++i) {
    accounts.apply_ratings(100 + i, "toy", {},
                           {{ids[i], {"toy", ratings[i], deviations[i], 0.06, 10, 1}}});
  }
  auto board = accounts.leaderboard("toy", 110, 0, 10);
  REQUIRE(board.size() == 4);
  CHECK(board[0].name == "p1");
  CHECK(board[1].name == "p3");
  CHECK(board[3].name == "p0");
  CHECK(board[3].rank == 4);
  auto page = accounts.leaderboard("toy", 110, 2, 1);
  REQUIRE(page.size() == 1);
  CHECK(page[0].name == "p2");
  CHECK(page[0].rank == 3);
  CHECK(accounts.leaderboard("other", 110, 0, 10).empty());
}
