#include <catch2/catch.hpp>

#include <stdexcept>

#include "storage/schema_text.hpp"
#include "storage/sqlite/schema.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using storage::Database;
using storage::StoreError;

namespace {

bool has_index(Database& db, const std::string& name) {
  storage::Statement s(db, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?");
  s.bind(1, name);
  return s.step();
}

}  // namespace

TEST_CASE("a new store is created at the current schema version in WAL mode") {
  testing::ScratchDir dir;
  { storage::SqliteMatchStore store(dir.file("duelhall.db")); }
  Database db(dir.file("duelhall.db"), false);
  CHECK(storage::schema_version(db) == storage::kSchemaVersion);
  CHECK(db.query_text("PRAGMA journal_mode") == "wal");
  CHECK(db.query_int("SELECT count(*) FROM schema_version") == 1);
  for (const char* table : {"matches", "match_seats", "actions"}) {
    CAPTURE(table);
    CHECK(db.query_int(std::string("SELECT count(*) FROM sqlite_master WHERE name = '") + table +
                       "'") == 1);
  }
}

TEST_CASE("a version 1 store with data is migrated in order and keeps its data") {
  testing::ScratchDir dir;
  const std::string path = dir.file("old.db");
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 5, 6);
  {
    // Build the store as the first release left it: migration 1 only, then data.
    Database db(path, true);
    db.exec("PRAGMA journal_mode = WAL");
    storage::migrate(db, 1);
    REQUIRE(storage::schema_version(db) == 1);
    REQUIRE_FALSE(has_index(db, "match_seats_name"));
    db.exec(
        "INSERT INTO matches (ruleset, seat_count, params, engine_version, commitment, seed, "
        "status, created_at) VALUES ('toy_race', 2, 'target=25', 'v', 'c', zeroblob(32), 'live', "
        "7)");
    db.exec("INSERT INTO match_seats VALUES (1, 0, 'Ann', '', NULL), (1, 1, 'Ben', '', NULL)");
    db.exec("INSERT INTO actions VALUES (1, 0, 0, 1, 8), (1, 1, 1, 1, 9)");
  }
  storage::SqliteMatchStore store(path);
  {
    Database db(path, false);
    CHECK(storage::schema_version(db) == storage::kSchemaVersion);
    CHECK(has_index(db, "match_seats_name"));
    CHECK(has_index(db, "matches_ruleset_ended"));
  }
  auto live = store.unfinished_matches();
  REQUIRE(live.size() == 1);
  CHECK(live[0].summary.names == std::vector<std::string>{"Ann", "Ben"});
  CHECK(live[0].steps.size() == 2);
  CHECK(live[0].config.params.values().at("target") == "25");
}

TEST_CASE("a store with a newer schema than the code knows is refused with a clear error") {
  testing::ScratchDir dir;
  const std::string path = dir.file("new.db");
  { storage::SqliteMatchStore store(path); }
  {
    Database db(path, false);
    db.exec("UPDATE schema_version SET version = " + std::to_string(storage::kSchemaVersion + 1));
  }
  CHECK_THROWS_WITH(storage::SqliteMatchStore(path),
                    Catch::Contains("newer than this Duelhall knows"));
}

TEST_CASE("a SQLite file that is not a Duelhall store is refused, not taken over") {
  testing::ScratchDir dir;
  const std::string path = dir.file("other.db");
  {
    Database db(path, true);
    db.exec("CREATE TABLE recipes (name TEXT)");
  }
  CHECK_THROWS_WITH(storage::SqliteMatchStore(path), Catch::Contains("not a Duelhall store"));
}

TEST_CASE("a missing file is not created when creation is off") {
  testing::ScratchDir dir;
  storage::StoreOptions options;
  options.create = false;
  CHECK_THROWS_AS(storage::SqliteMatchStore(dir.file("absent.db"), options), StoreError);
}

TEST_CASE(
    "new stores get 4096-byte pages, and a store made with other pages opens and keeps them") {
  testing::ScratchDir dir;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 3, 0);
  const std::string fresh = dir.file("fresh.db");
  { storage::SqliteMatchStore store(fresh); }
  CHECK(Database(fresh, false).query_int("PRAGMA page_size") == 4096);

  for (const int64_t page_size : {512, 1024, 8192}) {
    CAPTURE(page_size);
    const std::string path = dir.file("pages-" + std::to_string(page_size) + ".db");
    {
      Database db(path, true);
      db.exec("PRAGMA page_size = " + std::to_string(page_size));
      db.query_text("PRAGMA journal_mode = WAL");
    }
    storage::MatchId id = 0;
    {
      storage::SqliteMatchStore store(path);
      id = store.create_match(testing::new_match_for(*state, 1));
      for (uint32_t i = 0; i < 300; ++i) store.append({id, i, 0, engine::Action::make(1), 5});
    }
    storage::StoreOptions options;
    options.full_integrity_check = true;
    storage::SqliteMatchStore store(path, options);
    CHECK(store.load_match(id)->steps.size() == 300);
    CHECK(Database(path, false).query_int("PRAGMA page_size") == page_size);
  }
}

TEST_CASE("the tables both backends share are spelt for each database, and a typo is refused") {
  const std::string sqlite =
      storage::in_dialect(storage::kModerationTables, storage::kSqliteDialect);
  const std::string pg = storage::in_dialect(storage::kModerationTables, storage::kPostgresDialect);
  CHECK(sqlite.find('{') == std::string::npos);
  CHECK(pg.find('{') == std::string::npos);
  CHECK(sqlite.find("id INTEGER PRIMARY KEY AUTOINCREMENT,") != std::string::npos);
  CHECK(sqlite.find(") WITHOUT ROWID;") != std::string::npos);
  CHECK(pg.find("id BIGSERIAL PRIMARY KEY,") != std::string::npos);
  CHECK(pg.find("created_at BIGINT NOT NULL") != std::string::npos);
  CHECK(pg.find("ROWID") == std::string::npos);
  CHECK(storage::in_dialect("a {bool} b", storage::kPostgresDialect) == "a BOOLEAN b");
  CHECK_THROWS_AS(storage::in_dialect("x {integer}", storage::kSqliteDialect), std::logic_error);
  CHECK_THROWS_AS(storage::in_dialect("x {int", storage::kSqliteDialect), std::logic_error);
}

TEST_CASE("a new store's moderation tables are created in SQLite's spelling") {
  testing::ScratchDir dir;
  { storage::SqliteMatchStore store(dir.file("duelhall.db")); }
  Database db(dir.file("duelhall.db"), false);
  const auto table_sql = [&](const std::string& name) {
    storage::Statement s(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?");
    s.bind(1, name);
    REQUIRE(s.step());
    return s.column_text(0);
  };
  CHECK(table_sql("ignores").find("WITHOUT ROWID") != std::string::npos);
  CHECK(table_sql("bans").find("id INTEGER PRIMARY KEY AUTOINCREMENT") != std::string::npos);
  CHECK(table_sql("mutes").find("account_id INTEGER PRIMARY KEY") != std::string::npos);
  CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE name = 'bans_active'") == 1);
}
