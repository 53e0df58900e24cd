#include "storage/sqlite/sqlite.hpp"

#include <sqlite3.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace duelhall::storage {

Database::Database(const std::string& path, bool create) : path_(path) {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (create) flags |= SQLITE_OPEN_CREATE;
  if (create && path != ":memory:" && !path.starts_with("file:")) {
    // The file holds sessions and password hashes: created 0600 whatever the umask (SQLite gives
    // its -wal and -shm files the database file's mode), and an older 0644 one is tightened.
    // An existing file is tightened by its path, never opened here: closing a descriptor drops
    // every POSIX lock this process holds on the file, those of its other SQLite connections
    // too (the match store's, opened first), and another process (duelhall admin) would then
    // take itself for the last user and delete the WAL under the server.
    const int fd =
        ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (fd >= 0) {
      ::close(fd);  // a new file: no connection can hold a lock on it yet
    } else {
      ::chmod(path.c_str(), S_IRUSR | S_IWUSR);
    }
  }
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError("cannot open database " + path + ": " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() {
  // Statements must be finalised before the connection closes.
  begin_immediate_.reset();
  begin_deferred_.reset();
  commit_.reset();
  rollback_.reset();
  sqlite3_close(db_);
}

Statement& Database::cached(std::unique_ptr<Statement>& slot, std::string_view sql) {
  if (!slot) slot = std::make_unique<Statement>(*this, sql);
  return *slot;
}

void Database::fail(std::string_view doing) const {
  const int code = sqlite3_errcode(db_);
  std::string message = sqlite3_errmsg(db_);
  const int primary = code & 0xff;
  if (primary == SQLITE_NOTADB) {
    throw StoreError("database " + path_ + " is not a SQLite database (" + message + ")");
  }
  if (primary == SQLITE_CORRUPT) {
    throw StoreError("database " + path_ + " is corrupt (" + message + ") while " +
                     std::string(doing));
  }
  const std::string reason = "database " + path_ + ": " + message + " while " + std::string(doing);
  // The device or the file system, not the data: the same write may succeed later.
  if (primary == SQLITE_FULL || primary == SQLITE_IOERR || primary == SQLITE_READONLY ||
      primary == SQLITE_CANTOPEN || primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    throw StoreUnavailableError(reason);
  }
  throw StoreError(reason);
}

void Database::exec(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    sqlite3_free(error);
    fail(text.substr(0, 60));
  }
}

std::string Database::query_text(std::string_view sql) {
  Statement stmt(*this, sql);
  if (!stmt.step()) return {};
  return stmt.column_text(0);
}

int64_t Database::query_int(std::string_view sql) {
  Statement stmt(*this, sql);
  if (!stmt.step()) return 0;
  return stmt.column_int(0);
}

int64_t Database::changes() const {
  return sqlite3_changes64(db_);
}

Statement::Statement(Database& db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    db.fail("preparing " + std::string(sql.substr(0, 60)));
  }
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_.fail("binding");
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    db_.fail("binding");
  }
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  if (sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    db_.fail("binding");
  }
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_.fail("binding");
  return *this;
}

Statement& Statement::bind_real(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) db_.fail("binding");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string sql = sqlite3_sql(stmt_) ? sqlite3_sql(stmt_) : "";
  sqlite3_reset(stmt_);
  db_.fail("running " + sql.substr(0, 60));
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::column_int(int index) const {
  return sqlite3_column_int64(stmt_, index);
}

std::string Statement::column_text(int index) const {
  const auto* text = sqlite3_column_text(stmt_, index);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, index)));
}

std::string Statement::column_blob(int index) const {
  const void* blob = sqlite3_column_blob(stmt_, index);
  if (!blob) return {};
  return std::string(static_cast<const char*>(blob),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, index)));
}

bool Statement::column_null(int index) const {
  return sqlite3_column_type(stmt_, index) == SQLITE_NULL;
}

double Statement::column_real(int index) const {
  return sqlite3_column_double(stmt_, index);
}

Transaction::Transaction(Database& db, bool immediate) : db_(db) {
  if (immediate) {
    db_.cached(db_.begin_immediate_, "BEGIN IMMEDIATE").run();
  } else {
    db_.cached(db_.begin_deferred_, "BEGIN").run();
  }
}

Transaction::~Transaction() {
  if (!open_) return;
  // Rolling back cannot be allowed to throw from a destructor; a failure (even to prepare)
  // leaves SQLite to roll back on the next statement or at close.
  try {
    db_.cached(db_.rollback_, "ROLLBACK").run();
  } catch (const StoreError&) {
  }
}

void Transaction::commit() {
  db_.cached(db_.commit_, "COMMIT").run();
  open_ = false;
}

}  // namespace duelhall::storage
