#include <catch2/catch.hpp>

#include "backends.hpp"

using namespace duelhall;
using testing::PostgresBackend;
using testing::SqliteBackend;

// Issue 29, item 8: guests were stored for ever, one row per new token. Unused ones now expire.
TEMPLATE_TEST_CASE(
    "guests: an unused guest identity expires; one that played, or that moderation "
    "names, stays",
    "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store_ptr = backend.open_accounts();
  auto& store = *store_ptr;
  const storage::AccountId idle = store.guest_account("idle-guest", 100);
  const storage::AccountId played = store.guest_account("played-guest", 100);
  const storage::AccountId ignored = store.guest_account("ignored-guest", 100);
  const storage::AccountId muted = store.guest_account("muted-guest", 100);
  const storage::AccountId recent = store.guest_account("recent-guest", 5000);
  const storage::AccountId member = *store.create_account("Ann", "ann", "$argon2id$x", 100);
  store.record_seats(1, {{0, played, {}, {}, {}}}, false);
  store.set_ignore(member, ignored, true);
  store.set_mute({muted, "rude", "mod", 100, 0});

  CHECK(store.find_guest("idle-guest") == idle);
  CHECK_FALSE(store.find_guest("never-seen"));
  CHECK(store.delete_unused_guests(1000) == 1);
  CHECK_FALSE(store.find_guest("idle-guest"));
  CHECK_FALSE(store.find_account(idle));
  for (storage::AccountId kept : {played, ignored, muted, recent, member}) {
    CHECK(store.find_account(kept));
  }
  CHECK(store.delete_unused_guests(1000) == 0);
  // The same token later is a new guest.
  CHECK(store.guest_account("idle-guest", 2000) != idle);
}
