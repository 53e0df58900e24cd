// A thin RAII layer over the SQLite C API: a connection and prepared statements. Every failure
// becomes a StoreError carrying SQLite's message and what was being done, so that the caller can
// report it and a corrupt file never passes silently.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "storage/store_error.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace duelhall::storage {

class Statement;

class Database {
 public:
  // Opens (creating if `create`) the file; throws StoreError.
  Database(const std::string& path, bool create);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  void exec(std::string_view sql);
  // The first column of the first row of a one-row query, as text.
  std::string query_text(std::string_view sql);
  int64_t query_int(std::string_view sql);
  int64_t changes() const;

  sqlite3* handle() const { return db_; }
  [[noreturn]] void fail(std::string_view doing) const;

 private:
  friend class Transaction;
  // A statement prepared on first use and kept: the group commit runs a transaction per batch,
  // and parsing BEGIN and COMMIT each time cost more than a small batch's inserts.
  Statement& cached(std::unique_ptr<Statement>& slot, std::string_view sql);

  sqlite3* db_ = nullptr;
  std::string path_;
  std::unique_ptr<Statement> begin_immediate_;
  std::unique_ptr<Statement> begin_deferred_;
  std::unique_ptr<Statement> commit_;
  std::unique_ptr<Statement> rollback_;
};

class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bind_blob(int index, std::string_view bytes);
  Statement& bind_null(int index);
  Statement& bind_real(int index, double value);
  // Steps once: true while there is a row to read, false when done.
  bool step();
  // Steps to completion, for statements without results; then resets for reuse.
  void run();
  void reset();

  int64_t column_int(int index) const;
  std::string column_text(int index) const;
  std::string column_blob(int index) const;
  bool column_null(int index) const;
  double column_real(int index) const;

 private:
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// The current row of a statement, read by column as the shared row readers read it
// (account_rows.hpp, match_rows.hpp); PostgreSQL's PgRow reads the same way.
struct StatementRow {
  Statement& stmt;
  std::string text(int c) const { return stmt.column_text(c); }
  int64_t integer(int c) const { return stmt.column_int(c); }
  bool boolean(int c) const { return stmt.column_int(c) != 0; }
  bool null(int c) const { return stmt.column_null(c); }
  double real(int c) const { return stmt.column_real(c); }
  std::string bytes(int c) const { return stmt.column_blob(c); }
};

// A transaction that rolls back unless committed.
class Transaction {
 public:
  explicit Transaction(Database& db, bool immediate = true);
  ~Transaction();
  void commit();

 private:
  Database& db_;
  bool open_ = true;
};

}  // namespace duelhall::storage
