// What the live server needs from the store beyond the library's own use (schema version 3):
// its own match ids, its hosting record, one player's token in several live matches, and the
// highest id ever given out, kept after a prune.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using testing::PostgresBackend;
using testing::SqliteBackend;

TEMPLATE_TEST_CASE(
    "a match stored under the server's id keeps it, with its server record and token hashes",
    "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 3, 4);
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  auto match = testing::new_match_for(*state, 3, 1000);
  match.id = 41;
  match.server_record = std::string("\x0a\x00settings", 10);
  match.reconnect_tokens = {"same-player", ""};
  CHECK(store.create_match(match) == 41);
  auto stored = store.load_match(41);
  REQUIRE(stored);
  CHECK(stored->server_record == match.server_record);
  REQUIRE(stored->token_hashes.size() == 2);
  CHECK(stored->token_hashes[0] == storage::token_hash("same-player"));
  CHECK(stored->token_hashes[1].empty());
  // The same token in a second live match (one player, two matches) is allowed.
  match.id = 42;
  CHECK(store.create_match(match) == 42);
  // An id in use is refused.
  CHECK_THROWS_AS(store.create_match(match), storage::StoreError);
}

TEMPLATE_TEST_CASE("the last match id survives pruning every match, so ids are never reused",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 5);
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  CHECK(store.last_match_id() == 0);
  auto match = testing::new_match_for(*state, 5, 1000);
  match.id = 7;
  store.create_match(match);
  store.finish_match(7, state->outcome(), 2000);
  CHECK(store.last_match_id() == 7);
  storage::RetentionPolicy policy;
  policy.keep_finished = 0;
  CHECK(store.prune(policy, 3000).matches == 1);
  CHECK_FALSE(store.load_match(7));
  CHECK(store.last_match_id() == 7);
  // Without an id the store continues after it too.
  CHECK(store.create_match(testing::new_match_for(*state, 6, 4000)) == 8);
}

TEMPLATE_TEST_CASE(
    "reserved match ids count as given out, on a fresh store and after stored matches", "[store]",
    SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 5);
  {
    auto store_ptr = backend.open_matches();
    auto& store = *store_ptr;
    store.reserve_match_ids(64);  // before any match is stored
    CHECK(store.last_match_id() == 64);
    store.reserve_match_ids(10);  // never lowers it
    CHECK(store.last_match_id() == 64);
    auto match = testing::new_match_for(*state, 5, 1000);
    match.id = 3;  // a reserved id the server gave out is stored under it
    CHECK(store.create_match(match) == 3);
    CHECK(store.last_match_id() == 64);
  }
  auto reopened_ptr = backend.open_matches();
  auto& reopened = *reopened_ptr;
  CHECK(reopened.last_match_id() == 64);
  reopened.reserve_match_ids(128);
  CHECK(reopened.last_match_id() == 128);
  CHECK(reopened.create_match(testing::new_match_for(*state, 6, 2000)) == 129);
}
