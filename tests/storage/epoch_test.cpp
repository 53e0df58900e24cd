// Fencing epochs (match_store.hpp claim_match): once a new owner's claim has returned, the old
// owner's writes to the match are refused, and every write the old owner was told was durable is
// in the log the new owner loads.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "backends.hpp"
#include "storage/group_commit.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using duelhall::testing::kToyRoll;
using storage::LoggedAction;
using storage::StaleEpochError;
using testing::PostgresBackend;
using testing::SqliteBackend;

namespace {


storage::MatchId create_claimed(storage::MatchStore& store, int64_t epoch, const char* node) {
  const auto registry = testing::toy_registry();
  auto match = testing::new_match_for(*testing::play_toy_match(registry, 7, 0), 7);
  match.epoch = epoch;
  match.node = node;
  return store.create_match(match);
}

}  // namespace

TEMPLATE_TEST_CASE("an append or an ending with an epoch below the match's owner is refused",
                   "[store][epoch]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store = backend.open_matches();
  const auto id = create_claimed(*store, 1, "node-a");
  CHECK(store->match_owner(id)->epoch == 1);
  store->append({id, 0, 0, kToyRoll, 1, 1});
  store->claim_match(id, 2, "node-b");
  CHECK(store->match_owner(id)->node == "node-b");
  CHECK_THROWS_AS(store->append({id, 1, 0, kToyRoll, 2, 1}), StaleEpochError);
  CHECK_THROWS_WITH(store->append({id, 1, 0, kToyRoll, 2, 0}), Catch::Contains("stale epoch 0"));
  CHECK_THROWS_AS(store->write_batch(std::vector<storage::MatchWrite>{storage::MatchEnding{
                      id, storage::MatchStatus::kAbandoned, {0, {}, "old owner"}, 3, 1}}),
                  StaleEpochError);
  // Nothing of the refused writes is stored.
  CHECK(store->load_match(id)->steps.size() == 1);
  CHECK(store->load_match(id)->summary.status == storage::MatchStatus::kLive);
  store->append({id, 1, 0, kToyRoll, 2, 2});
  store->append({id, 2, 0, kToyRoll, 2, 3});  // a higher epoch than the claim is no staler
  CHECK(store->load_match(id)->steps.size() == 3);
  // Claims only go up: a lower epoch, or the same one by another node, is refused; the owner
  // claiming again is harmless.
  CHECK_THROWS_AS(store->claim_match(id, 1, "node-a"), StaleEpochError);
  CHECK_THROWS_AS(store->claim_match(id, 2, "node-a"), StaleEpochError);
  store->claim_match(id, 2, "node-b");
  CHECK(store->match_owner(id)->epoch == 2);
  // A match never claimed (a single server) takes epoch 0 appends.
  const auto registry = testing::toy_registry();
  const auto plain = testing::store_match(*store, *testing::play_toy_match(registry, 8, 4), 8);
  CHECK(store->load_match(plain)->steps.size() == 4);
  CHECK_FALSE(store->match_owner(plain));
}

TEMPLATE_TEST_CASE(
    "a new owner's claim fences the old owner mid-stream, and no acknowledged action is lost",
    "[store][epoch]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto old_store = backend.open_matches();
  auto new_store = backend.second_node(old_store);
  const auto id = create_claimed(*old_store, 1, "node-a");
  // The old owner appends as fast as its log takes them, one after the other, through the
  // group-commit log the server uses, and counts what it was told is durable.
  std::atomic<uint32_t> acknowledged{0};
  std::string refusal;
  std::thread old_owner([&] {
    storage::GroupCommitLog log(*old_store);
    for (uint32_t index = 0; index < 100'000; ++index) {
      const auto result = log.append(LoggedAction{id, index, 0, kToyRoll, index, 1}).get();
      if (!result.ok) {
        refusal = result.error;
        return;
      }
      acknowledged = index + 1;
    }
  });
  while (acknowledged < 50) std::this_thread::yield();
  new_store->claim_match(id, 2, "node-b");
  const uint32_t acknowledged_at_claim = acknowledged;
  auto adopted = new_store->load_match(id);
  old_owner.join();
  REQUIRE(adopted);
  // Everything acknowledged before the claim returned is in the log the new owner loaded, and
  // the old owner got nothing more acknowledged after it (at most the one append in flight).
  CHECK(adopted->steps.size() >= acknowledged_at_claim);
  CHECK(acknowledged == adopted->steps.size());
  CHECK_THAT(refusal, Catch::Contains("stale epoch 1"));
  // The new owner carries on from the log it loaded.
  const auto next = static_cast<uint32_t>(adopted->steps.size());
  new_store->append({id, next, 1, kToyRoll, 0, 2});
  CHECK(new_store->load_match(id)->steps.size() == next + 1);
}
