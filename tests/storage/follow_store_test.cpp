// Follows (docs/pairing.md, "Follow and presence") on both backends: kept in the order followed,
// once each, removed by an unfollow, per follower, and there again after the store is reopened.
#include <catch2/catch.hpp>

#include "backends.hpp"

using namespace duelhall;
using namespace duelhall::testing;

TEMPLATE_TEST_CASE("follows keep who follows whom, in order, once each, across a reopen", "[store]",
                   SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store = backend.open_accounts();
  const auto ann = *store->create_account("ann", "ann", "$h", 1);
  const auto ben = *store->create_account("ben", "ben", "$h", 1);
  const auto cid = *store->create_account("cid", "cid", "$h", 1);
  CHECK(store->follows(ann).empty());
  store->set_follow(ann, cid, true);
  store->set_follow(ann, ben, true);
  store->set_follow(ann, cid, true);  // again: still once
  store->set_follow(ben, ann, true);
  CHECK(store->follows(ann) == std::vector<storage::AccountId>{cid, ben});
  CHECK(store->follows(ben) == std::vector<storage::AccountId>{ann});
  store->set_follow(ann, cid, false);
  store->set_follow(ann, cid, false);  // not followed: nothing happens
  CHECK(store->follows(ann) == std::vector<storage::AccountId>{ben});
  auto reopened = backend.open_accounts();
  CHECK(reopened->follows(ann) == std::vector<storage::AccountId>{ben});
  CHECK(reopened->follows(cid).empty());
}
