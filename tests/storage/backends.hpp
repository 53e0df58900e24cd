// The store backends the contract tests run against, one type each for TEMPLATE_TEST_CASE: the
// same test body runs on SQLite (a scratch file) and on PostgreSQL (a new database in the test
// process's throw-away server, support/throwaway_postgres.hpp).
//
// open_matches()/open_accounts() open a new store on the backend's one database each call, as a
// restart of the server would (open_accounts() gives the backend's own type, which is both its
// AccountStore and its ModerationStore); exec()/query_bytes() reach the database behind the store's
// back (to damage a log, to read what is stored). second_node() is the store another node of a
// cluster would write through: a connection of its own on PostgreSQL, and the same store on
// SQLite, which has a single node.
#pragma once

#include <memory>
#include <string>

#include "storage/sqlite/sqlite_account_store.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "storage/postgres/postgres_account_store.hpp"
#include "storage/postgres/postgres_match_store.hpp"
#include "support.hpp"
#include "support/throwaway_postgres.hpp"

namespace duelhall::testing {

struct SqliteBackend {
  ScratchDir dir;
  std::string path = dir.file("d.db");

  std::shared_ptr<storage::MatchStore> open_matches() {
    return std::make_shared<storage::SqliteMatchStore>(path);
  }
  std::unique_ptr<storage::SqliteAccountStore> open_accounts() {
    return std::make_unique<storage::SqliteAccountStore>(path);
  }
  std::shared_ptr<storage::MatchStore> second_node(std::shared_ptr<storage::MatchStore> first) {
    return first;
  }
  void exec(const std::string& sql) {
    storage::Database db(path, false);
    db.exec(sql);
  }
  std::string query_bytes(const std::string& sql) {
    storage::Database db(path, false);
    storage::Statement stmt(db, sql);
    return stmt.step() ? stmt.column_blob(0) : std::string();
  }
};

struct PostgresBackend {
  std::string url = ThrowawayPostgres::shared().new_database();

  std::shared_ptr<storage::MatchStore> open_matches() {
    return std::make_shared<storage::PostgresMatchStore>(url);
  }
  std::unique_ptr<storage::PostgresAccountStore> open_accounts() {
    return std::make_unique<storage::PostgresAccountStore>(url);
  }
  std::shared_ptr<storage::MatchStore> second_node(std::shared_ptr<storage::MatchStore>) {
    return open_matches();
  }
  void exec(const std::string& sql) {
    storage::PgConnection db(url);
    db.exec(sql);
  }
  std::string query_bytes(const std::string& sql) {
    storage::PgConnection db(url);
    const storage::PgResult rows = db.query(sql);
    return rows.rows() ? rows.bytes(0, 0) : std::string();
  }
};

}  // namespace duelhall::testing
