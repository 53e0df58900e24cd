// A thin RAII layer over libpq: a connection, parameterised queries and their results, and a
// transaction. Every failure becomes a StoreError carrying PostgreSQL's message and what was
// being done. Parameters are sent as text, except bytes (add_bytes), which are sent binary;
// results come back as text, bytea columns decoded by bytes().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store_error.hpp"

struct pg_conn;
struct pg_result;

namespace duelhall::storage {

class PgParams {
 public:
  PgParams& add(int64_t value);
  PgParams& add(std::string_view text);
  PgParams& add_real(double value);
  PgParams& add_bytes(std::string_view bytes);
  PgParams& add_null();

 private:
  friend class PgConnection;
  std::vector<std::string> values_;
  std::vector<bool> null_;
  std::vector<int> formats_;
};

class PgResult {
 public:
  explicit PgResult(pg_result* result) : result_(result) {}
  ~PgResult();
  PgResult(PgResult&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
  PgResult& operator=(PgResult&& other) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;

  int rows() const;
  bool null(int row, int column) const;
  std::string text(int row, int column) const;
  int64_t integer(int row, int column) const;
  double real(int row, int column) const;
  bool boolean(int row, int column) const;
  std::string bytes(int row, int column) const;  // a bytea column
  int64_t affected() const;                      // rows changed by an INSERT/UPDATE/DELETE

 private:
  friend class PgConnection;
  pg_result* result_;
};

// One row of a result, read by column as the shared row readers read it (account_rows.hpp,
// match_rows.hpp); SQLite's StatementRow reads the same way.
struct PgRow {
  const PgResult& rows;
  int r;
  std::string text(int c) const { return rows.text(r, c); }
  int64_t integer(int c) const { return rows.integer(r, c); }
  bool boolean(int c) const { return rows.boolean(r, c); }
  bool null(int c) const { return rows.null(r, c); }
  double real(int c) const { return rows.real(r, c); }
  std::string bytes(int c) const { return rows.bytes(r, c); }
};

class PgConnection {
 public:
  // Connects to `url` (postgresql://... or key=value pairs); throws StoreError with libpq's
  // reason (unreachable server, refused credentials, unknown database).
  explicit PgConnection(const std::string& url);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Opens a call (a transaction, or statements on their own): reconnects when the connection is
  // known lost, and arms one retry for the call's first statement. A connection that was cut
  // since its last use (PostgreSQL restarted, the backend was terminated) looks open until
  // used: that first statement then fails having run nothing, and is run again once on a new
  // connection, so no call fails for a connection dropped between calls. Only the first
  // statement is retried, since a later one finds the call's earlier work gone with the
  // connection; a call whose first statement is a write that is not idempotent runs it inside
  // a transaction (whose BEGIN is then that first statement).
  void ensure_open();

  void exec(std::string_view sql);
  PgResult query(std::string_view sql, const PgParams& params = {});

 private:
  pg_result* run(const std::string& sql, const PgParams& params);
  // Throws StoreError with libpq's reason when PostgreSQL does not answer.
  void reconnect();

  pg_conn* conn_ = nullptr;
  std::string url_;
  bool first_statement_ = false;  // armed by ensure_open()
};

// A transaction that rolls back unless committed.
class PgTransaction {
 public:
  explicit PgTransaction(PgConnection& db);
  ~PgTransaction();
  PgTransaction(const PgTransaction&) = delete;
  PgTransaction& operator=(const PgTransaction&) = delete;
  void commit();

 private:
  PgConnection& db_;
  bool open_ = true;
};

// The url as a log line may show it: the password, if any, replaced by "***".
std::string redact_url(std::string_view url);

}  // namespace duelhall::storage
