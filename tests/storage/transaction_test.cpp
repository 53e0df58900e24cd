// Transaction keeps its BEGIN, COMMIT and ROLLBACK prepared on the connection (sqlite.hpp): the
// group commit runs one transaction per batch. These tests hold what that must not change.
#include <catch2/catch.hpp>

#include <filesystem>

#include "storage/sqlite/sqlite.hpp"
#include "support.hpp"

using namespace duelhall;
using storage::Database;
using storage::StoreError;
using storage::Transaction;

namespace {

int64_t rows(Database& db) {
  return db.query_int("SELECT count(*) FROM t");
}

}  // namespace

TEST_CASE("transactions in a row on one connection: committed ones stay, the others roll back") {
  testing::ScratchDir dir;
  Database db(dir.file("t.db"), true);
  db.query_text("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE t (k INTEGER PRIMARY KEY)");
  storage::Statement insert(db, "INSERT INTO t (k) VALUES (?)");
  for (int64_t k = 0; k < 50; ++k) {
    Transaction tx(db);
    insert.bind(1, k).run();
    if (k % 2 == 0) tx.commit();
  }
  CHECK(rows(db) == 25);
  CHECK(db.query_int("SELECT count(*) FROM t WHERE k % 2 = 1") == 0);
  // A deferred transaction shares the connection with the immediate ones.
  {
    Transaction tx(db, false);
    insert.bind(1, int64_t{100}).run();
    tx.commit();
  }
  CHECK(rows(db) == 26);
}

TEST_CASE("a transaction whose statement failed rolls back, and the next one begins") {
  testing::ScratchDir dir;
  Database db(dir.file("t.db"), true);
  db.exec("CREATE TABLE t (k INTEGER PRIMARY KEY)");
  storage::Statement insert(db, "INSERT INTO t (k) VALUES (?)");
  {
    Transaction tx(db);
    insert.bind(1, int64_t{1}).run();
    tx.commit();
  }
  try {
    Transaction tx(db);
    insert.bind(1, int64_t{2}).run();
    insert.bind(1, int64_t{1}).run();  // a duplicate key: throws, and tx rolls back
    tx.commit();
    FAIL("the duplicate was accepted");
  } catch (const StoreError&) {
  }
  insert.reset();
  CHECK(rows(db) == 1);  // the row before the duplicate went with it
  Transaction tx(db);    // throws if the failed one were still open
  insert.bind(1, int64_t{3}).run();
  tx.commit();
  CHECK(rows(db) == 2);
}

TEST_CASE("a connection that ran transactions closes cleanly: its WAL is checkpointed away") {
  testing::ScratchDir dir;
  const std::string path = dir.file("t.db");
  {
    Database db(path, true);
    db.query_text("PRAGMA journal_mode = WAL");
    db.exec("CREATE TABLE t (k INTEGER PRIMARY KEY)");
    for (int64_t k = 0; k < 3; ++k) {
      Transaction tx(db);
      storage::Statement(db, "INSERT INTO t (k) VALUES (?)").bind(1, k).run();
      if (k != 1) tx.commit();
    }
    REQUIRE(std::filesystem::exists(path + "-wal"));
  }
  // SQLite deletes the WAL when the last connection closes, which it refuses to do (SQLITE_BUSY)
  // while a statement of the connection is not finalised.
  CHECK_FALSE(std::filesystem::exists(path + "-wal"));
  Database db(path, false);
  CHECK(rows(db) == 2);
}
