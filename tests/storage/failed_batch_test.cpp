// A batch is all or nothing (match_store.hpp), and so is what the store remembers of it: the
// SQLite store keeps each live match's next step index and whether it ended in memory, changed
// in place by a batch and put back when the batch fails (sqlite_match_store.hpp).
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using duelhall::testing::kToyRoll;
using storage::MatchWrite;
using storage::StoreError;
using testing::PostgresBackend;
using testing::SqliteBackend;

namespace {


storage::MatchEnding ending_of(storage::MatchId match) {
  storage::MatchEnding ending;
  ending.match = match;
  ending.status = storage::MatchStatus::kAbandoned;
  ending.outcome.reason = "cancelled";
  ending.ended_ms = 9;
  return ending;
}

}  // namespace

TEMPLATE_TEST_CASE("a failed batch leaves no trace: the next batch sees every match as before it",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 4, 0);
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  const storage::MatchId a = store.create_match(testing::new_match_for(*state, 1));
  const storage::MatchId b = store.create_match(testing::new_match_for(*state, 2));
  store.append({a, 0, 0, kToyRoll, 1});  // cached by the store from here on
  auto fresh = testing::new_match_for(*state, 3);
  fresh.id = b + 100;

  // Advances a, ends b, creates a new match and appends to it, then fails on a duplicate.
  const std::vector<MatchWrite> failing = {storage::LoggedAction{a, 1, 1, kToyRoll, 2},
                                           storage::LoggedAction{a, 2, 0, kToyRoll, 3},
                                           ending_of(b),
                                           fresh,
                                           storage::LoggedAction{fresh.id, 0, 0, kToyRoll, 4},
                                           storage::LoggedAction{a, 2, 0, kToyRoll, 5}};
  CHECK_THROWS_AS(store.write_batch(failing), StoreError);

  // a still expects step 1, b is still live, the new match does not exist.
  CHECK_THROWS_WITH(store.append({a, 3, 0, kToyRoll, 6}), Catch::Contains("expects step 1"));
  store.append({a, 1, 1, kToyRoll, 6});
  store.append({b, 0, 0, kToyRoll, 7});
  CHECK_THROWS_WITH(store.append({fresh.id, 0, 0, kToyRoll, 8}), Catch::Contains("unknown match"));
  CHECK(store.load_match(a)->steps.size() == 2);
  CHECK(store.load_match(b)->summary.status == storage::MatchStatus::kLive);
  CHECK_FALSE(store.load_match(fresh.id).has_value());

  // The same writes succeed once the duplicate is gone, and then count.
  std::vector<MatchWrite> good(failing.begin(), failing.end() - 1);
  good[0] = storage::LoggedAction{a, 2, 0, kToyRoll, 2};
  good[1] = storage::LoggedAction{a, 3, 1, kToyRoll, 3};
  store.write_batch(good);
  CHECK_THROWS_WITH(store.append({b, 1, 0, kToyRoll, 9}), Catch::Contains("ended match"));
  store.append({fresh.id, 1, 1, kToyRoll, 9});
  store.append({a, 4, 0, kToyRoll, 9});
  CHECK(store.load_match(a)->steps.size() == 5);
  CHECK(store.load_match(fresh.id)->steps.size() == 2);
}
