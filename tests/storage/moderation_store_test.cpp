// The moderation half of the SQLite account store (migration 5; docs/moderation.md): an older
// store gains the tables and keeps its accounts, and each table keeps what it is given.
#include <catch2/catch.hpp>

#include "storage/schema.hpp"
#include "storage/sqlite_account_store.hpp"
#include "support.hpp"

using namespace duelhall;
using storage::SqliteAccountStore;

namespace {

storage::BanRecord ban(storage::AccountId account, const char* address, int64_t expires_ms) {
  storage::BanRecord b;
  b.account = account;
  b.account_name = account != 0 ? "a" : "";
  b.address = address;
  b.reason = "spam";
  b.by = "mod";
  b.created_ms = 100;
  b.expires_ms = expires_ms;
  return b;
}

storage::MuteRecord mute(storage::AccountId account, const char* reason, int64_t expires_ms) {
  storage::MuteRecord m;
  m.account = account;
  m.reason = reason;
  m.by = "mod";
  m.created_ms = 100;
  m.expires_ms = expires_ms;
  return m;
}

// One initializer: GCC 12 at -O3 warns falsely (-Wrestrict) on assigning literals field by field.
storage::AuditRecord entry(const std::string& action, int64_t expires_ms) {
  return storage::AuditRecord{0, "mod", action, "a", "why", 100, expires_ms};
}

}  // namespace

TEST_CASE("migration 5 adds roles and the moderation tables to a store of version 4") {
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
  CHECK(storage::schema_version(db) == 5);
}

TEST_CASE("bans, mutes, reports, the audit log and ignores keep what they are given") {
  testing::ScratchDir dir;
  SqliteAccountStore store(dir.file("d.db"));
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

  const storage::ReportRecord report{0, "a", a, "b", b, 7, "a line", 0, "insult", 100, false, {}, {}};
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
}
