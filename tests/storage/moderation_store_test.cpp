// The moderation half of the account stores (docs/moderation.md), on both backends
// (backends.hpp): roles and each table keep what they are given; an older SQLite file gains the
// tables (migration 5) and keeps its accounts.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "storage/sqlite/schema.hpp"
#include "storage/postgres/pg_schema.hpp"

using namespace duelhall;
using storage::SqliteAccountStore;
using testing::PostgresBackend;
using testing::SqliteBackend;

namespace {

// One initializer each: GCC 12 at -O3 warns falsely (-Wrestrict) on assigning literals field by
// field.
storage::BanRecord ban(storage::AccountId account, const char* address, int64_t expires_ms) {
  return storage::BanRecord{0,   account,   account != 0 ? "a" : "", address, "spam", "mod",
                            100, expires_ms};
}

storage::MuteRecord mute(storage::AccountId account, const char* reason, int64_t expires_ms) {
  return storage::MuteRecord{account, reason, "mod", 100, expires_ms};
}

storage::AuditRecord entry(const std::string& action, int64_t expires_ms) {
  return storage::AuditRecord{0, "mod", action, "a", "why", 100, expires_ms};
}

}  // namespace

TEST_CASE(
    "migrations 5 and 6 bring a store of version 4 its roles, moderation tables and match owners") {
  testing::ScratchDir dir;
  const std::string path = dir.file("d.db");
  {
    storage::Database db(path, true);
    storage::migrate(db, 4);
    db.exec(
        "INSERT INTO accounts (name, name_key, password_hash, created_at) "
        "VALUES ('Ann', 'ann', '$argon2id$x', 1)");
  }
  SqliteAccountStore store(path);
  const auto ann = store.find_by_key("ann");
  REQUIRE(ann);
  CHECK(ann->role.empty());
  store.set_role(ann->id, "moderator");
  CHECK(store.find_account(ann->id)->role == "moderator");
  REQUIRE(store.staff().size() == 1);
  storage::Database db(path, false);
  CHECK(storage::schema_version(db) == storage::kSchemaVersion);  // and the migrations after
  CHECK(db.query_int("SELECT count(*) FROM match_owners") == 0);  // migration 6's table
}

TEMPLATE_TEST_CASE("roles are kept on the accounts, listed as the staff and dropped on deletion",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  storage::AccountId ann = 0;
  storage::AccountId bob = 0;
  {
    auto store = backend.open_accounts();
    ann = *store->create_account("Ann", "ann", "$h", 1);
    bob = *store->create_account("Bob", "bob", "$h", 1);
    REQUIRE(store->create_account("Cy", "cy", "$h", 1));
    store->set_role(bob, "admin");
    store->set_role(ann, "moderator");
  }
  auto store = backend.open_accounts();  // roles survive reopening
  CHECK(store->find_account(ann)->role == "moderator");
  CHECK(store->find_by_key("bob")->role == "admin");
  CHECK(store->find_by_key("cy")->role.empty());
  const auto staff = store->staff();
  REQUIRE(staff.size() == 2);
  CHECK(staff[0].name == "Ann");  // by name
  CHECK(staff[1].role == "admin");
  store->set_role(ann, "");
  CHECK(store->find_account(ann)->role.empty());
  store->delete_account(bob, 5);
  CHECK(store->staff().empty());
  CHECK(store->find_account(bob)->role.empty());
}

TEMPLATE_TEST_CASE("bans, mutes, reports, the audit log and ignores keep what they are given",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store_ptr = backend.open_accounts();
  auto& store = *store_ptr;
  const auto a = *store.create_account("a", "a", "$h", 1);
  const auto b = *store.create_account("b", "b", "$h", 1);
  const int64_t forever = store.add_ban(ban(a, "", 0));
  const int64_t timed = store.add_ban(ban(0, "10.0.0.0/8", 500));
  CHECK(store.active_bans(400).size() == 2);
  CHECK(store.active_bans(500).size() == 1);  // the timed one has expired
  CHECK(store.active_bans(500).front().expires_ms == 0);
  CHECK(store.lift_ban(forever, 600));
  CHECK_FALSE(store.lift_ban(forever, 600));
  CHECK(store.active_bans(100).size() == 1);
  CHECK(store.active_bans(100).front().id == timed);

  store.set_mute(mute(b, "rude", 300));
  store.set_mute(mute(b, "ruder", 0));  // replaces the first
  REQUIRE(store.active_mutes(1'000).size() == 1);
  CHECK(store.active_mutes(1'000).front().reason == "ruder");
  CHECK(store.clear_mute(b));
  CHECK_FALSE(store.clear_mute(b));

  const storage::ReportRecord report{0, "a",      a,   "b",   b,  7, "a line",
                                     0, "insult", 100, false, {}, {}};
  const int64_t id = store.add_report(report);
  CHECK(store.reports(false, 10).size() == 1);
  CHECK(store.resolve_report(id, "mod", "warned", 200));
  CHECK_FALSE(store.resolve_report(id, "mod", "again", 300));
  CHECK(store.reports(false, 10).empty());
  CHECK(store.find_report(id)->note == "warned");

  store.add_audit(entry("ban", 0));
  store.add_audit(entry("mute", 300));
  const auto log = store.audit(std::nullopt, 10);
  REQUIRE(log.size() == 2);
  CHECK(log[0].action == "mute");
  CHECK(log[0].expires_ms == 300);
  CHECK(store.audit(log[0].id, 10).size() == 1);

  store.set_ignore(a, b, true);
  store.set_ignore(a, b, true);
  CHECK(store.ignores(a) == std::vector<storage::AccountId>{b});
  store.set_ignore(a, b, false);
  CHECK(store.ignores(a).empty());

  auto reopened = backend.open_accounts();
  CHECK(reopened->active_bans(100).size() == 1);
  CHECK(reopened->find_report(id)->resolved_by == "mod");
  CHECK(reopened->audit(std::nullopt, 10).size() == 2);
}

TEST_CASE("PostgreSQL migration 2 brings a database of version 1 roles and the moderation tables") {
  PostgresBackend backend;
  backend.open_accounts();
  // Version 1 as it was: migrations 2, 3 (follows) and 4 (decks) undone by hand.
  backend.exec(
      "DROP TABLE tournaments, decks, bans, mutes, reports, audit_log, ignores, follows; "
      "ALTER TABLE accounts DROP COLUMN role; UPDATE schema_version SET version = 1; "
      "INSERT INTO accounts (name, name_key, password_hash, created_at) "
      "VALUES ('Ann', 'ann', '$argon2id$x', 1)");
  auto store = backend.open_accounts();
  const auto ann = store->find_by_key("ann");
  REQUIRE(ann);
  CHECK(ann->role.empty());
  store->set_role(ann->id, "moderator");
  CHECK(store->staff().size() == 1);
  store->set_ignore(ann->id, 7, true);
  CHECK(store->ignores(ann->id) == std::vector<storage::AccountId>{7});
  storage::PgConnection db(backend.url);
  CHECK(storage::pg_schema_version(db) == storage::kPgSchemaVersion);
}
