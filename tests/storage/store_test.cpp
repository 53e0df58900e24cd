#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <type_traits>

#include "backends.hpp"
#include "core/version.hpp"
#include "fairness/commitment.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using storage::StoreError;
using testing::PostgresBackend;
using testing::SqliteBackend;

namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEMPLATE_TEST_CASE("appended actions survive closing and reopening the store", "[store]",
                   SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 11, 9);
  storage::MatchId id = 0;
  {
    auto store_ptr = backend.open_matches();
    auto& store = *store_ptr;
    id = testing::store_match(store, *state, 11);
  }
  auto reopened_ptr = backend.open_matches();
  auto& reopened = *reopened_ptr;
  auto stored = reopened.load_match(id);
  REQUIRE(stored);
  CHECK(stored->steps == state->history());
  CHECK(stored->config == state->config());
  CHECK(stored->summary.status == storage::MatchStatus::kLive);
  CHECK(stored->summary.steps == 9);
  CHECK(stored->summary.commitment ==
        fairness::seed_commitment(state->config().seed, engine::kEngineVersion));
}

TEMPLATE_TEST_CASE("recovery lists unfinished matches whose logs replay to the live states",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  std::vector<std::unique_ptr<engine::State>> live;
  for (uint64_t n = 1; n <= 4; ++n) {
    live.push_back(testing::play_toy_match(registry, n, 3 + n));
    testing::store_match(store, *live.back(), n);
  }
  auto ended = testing::play_toy_match(registry, 99);
  const auto ended_id = testing::store_match(store, *ended, 99);
  store.finish_match(ended_id, ended->outcome(), 5000);

  auto unfinished = store.unfinished_matches();
  REQUIRE(unfinished.size() == 4);
  for (size_t i = 0; i < unfinished.size(); ++i) {
    std::string error;
    auto rebuilt = engine::replay(registry, unfinished[i].config, unfinished[i].steps, error);
    REQUIRE(rebuilt);
    CHECK(rebuilt->serialize() == live[i]->serialize());
    CHECK_FALSE(unfinished[i].summary.revealed_seed);
  }
}

TEMPLATE_TEST_CASE("reconnect tokens are stored only as SHA-256 hashes and found by the token",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 3, 2);
  storage::MatchId id = 0;
  {
    auto store_ptr = backend.open_matches();
    auto& store = *store_ptr;
    id = testing::store_match(store, *state, 3);
    auto seat = store.find_token("token-3-1");
    REQUIRE(seat);
    CHECK(seat->match == id);
    CHECK(seat->seat == 1);
    CHECK_FALSE(store.find_token("token-3-2"));
    CHECK_FALSE(store.find_token(""));
    store.set_token(id, 0, "fresh-token");
    CHECK_FALSE(store.find_token("token-3-0"));
    CHECK(store.find_token("fresh-token")->seat == 0);
  }
  if constexpr (std::is_same_v<TestType, SqliteBackend>) {
    // The file (and its WAL) holds the hash, never the token.
    std::string bytes = file_bytes(backend.path) + file_bytes(backend.path + "-wal");
    CHECK(bytes.find("token-3-1") == std::string::npos);
    CHECK(bytes.find("fresh-token") == std::string::npos);
  }
  const auto digest = fairness::sha256("token-3-1");
  CHECK(backend.query_bytes("SELECT token_hash FROM match_seats WHERE seat = 1") ==
        std::string(digest.begin(), digest.end()));
}

TEMPLATE_TEST_CASE("ending a match reveals its seed, records its result and retires its tokens",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 21);
  REQUIRE(state->terminal());
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  const auto id = testing::store_match(store, *state, 21);
  CHECK_FALSE(store.load_match(id)->summary.revealed_seed);
  store.finish_match(id, state->outcome(), 9000);
  auto stored = store.load_match(id);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
  REQUIRE(stored->summary.revealed_seed);
  CHECK(*stored->summary.revealed_seed == state->config().seed);
  REQUIRE(stored->summary.outcome);
  CHECK(stored->summary.outcome->scores == state->outcome().scores);
  CHECK(stored->summary.outcome->reason == state->outcome().reason);
  CHECK(stored->summary.ended_ms == 9000);
  CHECK_FALSE(store.find_token("token-21-0"));
  CHECK_THROWS_WITH(store.finish_match(id, state->outcome(), 9001),
                    Catch::Contains("no live match"));
}

TEMPLATE_TEST_CASE(
    "an ended match is read back as recently ended, and its token hashes kept until forgotten",
    "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 22);
  auto live = testing::play_toy_match(registry, 23, 2);
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  const auto id = testing::store_match(store, *state, 22);
  const auto live_id = testing::store_match(store, *live, 23);
  CHECK(store.recently_ended_matches(0).empty());  // live matches are not ended ones
  store.finish_match(id, state->outcome(), 9000);
  auto ended = store.recently_ended_matches(9000);
  REQUIRE(ended.size() == 1);
  CHECK(ended[0].summary.id == id);
  CHECK(ended[0].steps.size() == state->history().size());
  REQUIRE(ended[0].token_hashes.size() == 2);
  CHECK(ended[0].token_hashes[1] == storage::token_hash("token-22-1"));
  CHECK(store.recently_ended_matches(9001).empty());
  // Not before its end, and never a live match's.
  CHECK(store.forget_ended_tokens(9000) == 0);
  CHECK(store.forget_ended_tokens(9001) == 2);
  CHECK(store.recently_ended_matches(9000).at(0).token_hashes.at(1).empty());
  CHECK(store.find_token("token-23-1")->match == live_id);
  CHECK(store.forget_ended_tokens(1'000'000) == 0);
}

TEMPLATE_TEST_CASE("appends out of order, duplicated, to unknown or ended matches are refused",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 4, 3);
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  const auto id = testing::store_match(store, *state, 4);
  const engine::Action roll = engine::Action::make(1);
  CHECK_THROWS_WITH(store.append({id, 2, 0, roll, 1}), Catch::Contains("expects step 3"));
  CHECK_THROWS_WITH(store.append({id, 5, 0, roll, 1}), Catch::Contains("expects step 3"));
  CHECK_THROWS_WITH(store.append({id + 100, 0, 0, roll, 1}), Catch::Contains("unknown match"));
  // A failed batch writes nothing of itself.
  const storage::LoggedAction batch[] = {{id, 3, 1, roll, 1}, {id, 3, 1, roll, 1}};
  CHECK_THROWS_AS(store.append_batch(batch), StoreError);
  CHECK(store.load_match(id)->steps.size() == 3);
  store.abandon_match(id, "engine invariant broken", 50);
  CHECK_THROWS_WITH(store.append({id, 3, 1, roll, 1}), Catch::Contains("ended match"));
  CHECK(store.load_match(id)->summary.status == storage::MatchStatus::kAbandoned);
}

TEMPLATE_TEST_CASE("recovery reports a match whose log has a gap and still recovers the others",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  const auto registry = testing::toy_registry();
  storage::MatchId broken = 0;
  {
    auto store_ptr = backend.open_matches();
    auto& store = *store_ptr;
    broken = testing::store_match(store, *testing::play_toy_match(registry, 1, 5), 1);
    testing::store_match(store, *testing::play_toy_match(registry, 2, 5), 2);
  }
  backend.exec("DELETE FROM actions WHERE match_id = " + std::to_string(broken) + " AND idx = 2");
  auto store_ptr = backend.open_matches();
  auto& store = *store_ptr;
  auto live = store.unfinished_matches();
  REQUIRE(live.size() == 2);
  CHECK(live[0].summary.id == broken);
  CHECK_THAT(live[0].problem, Catch::Contains("has a gap at step 2"));
  CHECK(live[1].problem.empty());
  CHECK(live[1].steps.size() == 5);
  store.abandon_match(broken, live[0].problem, 1);
  CHECK(store.unfinished_matches().size() == 1);
}
