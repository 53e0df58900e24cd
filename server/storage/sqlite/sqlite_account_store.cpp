#include "storage/sqlite/sqlite_account_store.hpp"

#include "storage/account_rows.hpp"
#include "storage/sqlite/schema.hpp"

namespace duelhall::storage {
SqliteAccountStore::SqliteAccountStore(const std::string& path)
    : db_(std::make_unique<Database>(path, true)) {
  db_->exec("PRAGMA busy_timeout = 5000");
  if (path != ":memory:") db_->query_text("PRAGMA journal_mode = WAL");
  db_->exec("PRAGMA synchronous = FULL");
  db_->exec("PRAGMA foreign_keys = ON");
  migrate(*db_);
}

SqliteAccountStore::~SqliteAccountStore() = default;

std::optional<AccountRecord> SqliteAccountStore::read_account(Statement& stmt) {
  if (!stmt.step()) return std::nullopt;
  return account_from_row(StatementRow{stmt});
}

std::optional<AccountId> SqliteAccountStore::create_account(std::string_view name,
                                                            std::string_view name_key,
                                                            std::string_view password_hash,
                                                            int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement taken(*db_, "SELECT 1 FROM accounts WHERE name_key = ?");
  if (taken.bind(1, name_key).step()) return std::nullopt;
  Statement insert(*db_,
                   "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                   "VALUES (?, ?, ?, ?)");
  insert.bind(1, name).bind(2, name_key).bind(3, password_hash).bind(4, now_ms).run();
  const AccountId id = db_->query_int("SELECT last_insert_rowid()");
  tx.commit();
  return id;
}

AccountId SqliteAccountStore::guest_account(std::string_view guest_hash, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement find(*db_, "SELECT id FROM accounts WHERE guest_hash = ?");
  if (find.bind_blob(1, guest_hash).step()) return find.column_int(0);
  Statement insert(*db_, "INSERT INTO accounts (guest_hash, created_at) VALUES (?, ?)");
  insert.bind_blob(1, guest_hash).bind(2, now_ms).run();
  const AccountId id = db_->query_int("SELECT last_insert_rowid()");
  tx.commit();
  return id;
}

bool SqliteAccountStore::promote_guest(AccountId guest, std::string_view name,
                                       std::string_view name_key, std::string_view password_hash) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement taken(*db_, "SELECT 1 FROM accounts WHERE name_key = ?");
  if (taken.bind(1, name_key).step()) return false;
  Statement update(*db_,
                   "UPDATE accounts SET name = ?, name_key = ?, password_hash = ?, "
                   "guest_hash = NULL WHERE id = ? AND guest_hash IS NOT NULL");
  update.bind(1, name).bind(2, name_key).bind(3, password_hash).bind(4, guest).run();
  if (db_->changes() != 1) return false;
  tx.commit();
  return true;
}

std::optional<AccountRecord> SqliteAccountStore::find_account(AccountId id) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kAccountColumns) + "WHERE id = ?");
  stmt.bind(1, id);
  return read_account(stmt);
}

std::optional<AccountRecord> SqliteAccountStore::find_by_key(std::string_view name_key) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kAccountColumns) + "WHERE name_key = ?");
  stmt.bind(1, name_key);
  return read_account(stmt);
}

void SqliteAccountStore::set_password(AccountId id, std::string_view password_hash) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "UPDATE accounts SET password_hash = ? WHERE id = ?");
  stmt.bind(1, password_hash).bind(2, id).run();
}

void SqliteAccountStore::delete_account(AccountId id, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement seats(*db_,
                  "UPDATE match_seats SET name = 'deleted player' WHERE EXISTS (SELECT 1 FROM "
                  "match_accounts ma WHERE ma.match_id = match_seats.match_id AND ma.seat = "
                  "match_seats.seat AND ma.account_id = ?)");
  seats.bind(1, id).run();
  Statement sessions(*db_, "DELETE FROM sessions WHERE account_id = ?");
  sessions.bind(1, id).run();
  Statement ratings(*db_, "DELETE FROM ratings WHERE account_id = ?");
  ratings.bind(1, id).run();
  Statement decks(*db_, "DELETE FROM decks WHERE owner = ?");
  decks.bind(1, id).run();
  Statement account(*db_,
                    "UPDATE accounts SET name = NULL, name_key = NULL, password_hash = NULL, "
                    "guest_hash = NULL, role = NULL, deleted_at = ? WHERE id = ?");
  account.bind(1, now_ms).bind(2, id).run();
  tx.commit();
}

void SqliteAccountStore::add_session(std::string_view token_hash, AccountId id, int64_t now_ms,
                                     int64_t expires_ms) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  // Expired sessions go as new ones come, so the table holds only live ones (and a few).
  Statement purge(*db_, "DELETE FROM sessions WHERE expires_at <= ?");
  purge.bind(1, now_ms).run();
  Statement stmt(*db_,
                 "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) "
                 "VALUES (?, ?, ?, ?)");
  stmt.bind_blob(1, token_hash).bind(2, id).bind(3, now_ms).bind(4, expires_ms).run();
  tx.commit();
}

std::optional<AccountId> SqliteAccountStore::session_account(std::string_view token_hash,
                                                             int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT s.account_id FROM sessions s JOIN accounts a ON a.id = s.account_id "
                 "WHERE s.token_hash = ? AND s.expires_at > ? AND a.deleted_at IS NULL");
  stmt.bind_blob(1, token_hash).bind(2, now_ms);
  if (!stmt.step()) return std::nullopt;
  return stmt.column_int(0);
}

void SqliteAccountStore::revoke_session(std::string_view token_hash) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "DELETE FROM sessions WHERE token_hash = ?");
  stmt.bind_blob(1, token_hash).run();
}

void SqliteAccountStore::revoke_sessions(AccountId id, std::string_view keep_hash) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "DELETE FROM sessions WHERE account_id = ? AND token_hash != ?");
  stmt.bind(1, id).bind_blob(2, keep_hash).run();
}

void SqliteAccountStore::record_seats(int64_t match_id, const std::vector<SeatAccount>& seats,
                                      bool rated) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement stmt(*db_,
                 "INSERT OR IGNORE INTO match_accounts (match_id, seat, account_id, rated) "
                 "VALUES (?, ?, ?, ?)");
  for (const SeatAccount& seat : seats) {
    stmt.bind(1, match_id).bind(2, int64_t{seat.seat}).bind(3, seat.account);
    stmt.bind(4, int64_t{rated ? 1 : 0}).run();
  }
  tx.commit();
}

std::vector<SeatAccount> SqliteAccountStore::match_seats(int64_t match_id, bool* rated) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT seat, account_id, rated, rating_before, rating_after, deviation_after "
                 "FROM match_accounts WHERE match_id = ? ORDER BY seat");
  stmt.bind(1, match_id);
  std::vector<SeatAccount> out;
  if (rated) *rated = false;
  while (stmt.step()) {
    SeatAccount s;
    s.seat = static_cast<int>(stmt.column_int(0));
    s.account = stmt.column_int(1);
    if (rated && stmt.column_int(2) != 0) *rated = true;
    if (!stmt.column_null(3)) s.rating_before = stmt.column_real(3);
    if (!stmt.column_null(4)) s.rating_after = stmt.column_real(4);
    if (!stmt.column_null(5)) s.deviation_after = stmt.column_real(5);
    out.push_back(s);
  }
  return out;
}

std::vector<RatingRecord> SqliteAccountStore::ratings(AccountId id) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT ruleset, rating, deviation, volatility, games, updated_at FROM ratings "
                 "WHERE account_id = ? ORDER BY ruleset");
  stmt.bind(1, id);
  std::vector<RatingRecord> out;
  while (stmt.step()) {
    out.push_back({stmt.column_text(0), stmt.column_real(1), stmt.column_real(2),
                   stmt.column_real(3), stmt.column_int(4), stmt.column_int(5)});
  }
  return out;
}

bool SqliteAccountStore::apply_ratings(
    int64_t match_id, std::string_view ruleset, const std::vector<SeatAccount>& changes,
    const std::vector<std::pair<AccountId, RatingRecord>>& ratings) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement done(*db_,
                 "SELECT 1 FROM match_accounts WHERE match_id = ? AND rating_after IS NOT NULL");
  if (done.bind(1, match_id).step()) return false;
  Statement seat(*db_,
                 "UPDATE match_accounts SET rating_before = ?, rating_after = ?, "
                 "deviation_after = ? WHERE match_id = ? AND seat = ?");
  for (const SeatAccount& c : changes) {
    seat.bind_real(1, c.rating_before.value_or(0)).bind_real(2, c.rating_after.value_or(0));
    seat.bind_real(3, c.deviation_after.value_or(0)).bind(4, match_id);
    seat.bind(5, int64_t{c.seat}).run();
  }
  Statement upsert(*db_,
                   "INSERT OR REPLACE INTO ratings (account_id, ruleset, rating, deviation, "
                   "volatility, games, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const auto& [account, r] : ratings) {
    upsert.bind(1, account).bind(2, ruleset).bind_real(3, r.rating).bind_real(4, r.deviation);
    upsert.bind_real(5, r.volatility).bind(6, r.games).bind(7, r.updated_ms).run();
  }
  tx.commit();
  return true;
}

std::vector<HistoryOpponent> SqliteAccountStore::opponents(int64_t match_id, int seat) {
  Statement stmt(*db_,
                 "SELECT s.seat, s.name, coalesce(a.id, 0), a.deleted_at IS NOT NULL, a.name "
                 "FROM match_seats s LEFT JOIN match_accounts ma ON ma.match_id = s.match_id "
                 "AND ma.seat = s.seat LEFT JOIN accounts a ON a.id = ma.account_id "
                 "WHERE s.match_id = ? AND s.seat != ? ORDER BY s.seat");
  stmt.bind(1, match_id).bind(2, int64_t{seat});
  std::vector<HistoryOpponent> out;
  while (stmt.step()) {
    HistoryOpponent o;
    o.seat = static_cast<int>(stmt.column_int(0));
    o.account = stmt.column_int(2);
    if (stmt.column_int(3) != 0) {
      o.name = "deleted player";
    } else if (!stmt.column_null(4)) {
      o.name = stmt.column_text(4);  // a registered account: its name, not the typed one
    } else {
      o.name = stmt.column_text(1);
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<HistoryEntry> SqliteAccountStore::history(AccountId id, size_t limit,
                                                      std::optional<int64_t> before) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kHistoryColumns) +
                           "WHERE ma.account_id = ? AND m.status != 'live' AND m.id < ? "
                           "ORDER BY m.id DESC LIMIT ?");
  stmt.bind(1, id).bind(2, before.value_or(INT64_MAX)).bind(3, static_cast<int64_t>(limit));
  std::vector<HistoryEntry> out;
  while (stmt.step()) {
    out.push_back(history_from_row(StatementRow{stmt}));
  }
  for (HistoryEntry& e : out) e.opponents = opponents(e.match_id, e.seat);
  return out;
}

std::vector<LeaderboardRow> SqliteAccountStore::leaderboard(std::string_view ruleset,
                                                            double max_deviation, size_t offset,
                                                            size_t limit) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT a.id, a.name, r.rating, r.deviation, r.games FROM ratings r "
                 "JOIN accounts a ON a.id = r.account_id WHERE r.ruleset = ? AND "
                 "r.deviation <= ? AND a.deleted_at IS NULL "
                 "ORDER BY r.rating DESC, a.id LIMIT ? OFFSET ?");
  stmt.bind(1, ruleset).bind_real(2, max_deviation).bind(3, static_cast<int64_t>(limit));
  stmt.bind(4, static_cast<int64_t>(offset));
  std::vector<LeaderboardRow> out;
  int64_t rank = static_cast<int64_t>(offset);
  while (stmt.step()) {
    out.push_back({++rank, stmt.column_int(0), stmt.column_text(1), stmt.column_real(2),
                   stmt.column_real(3), stmt.column_int(4)});
  }
  return out;
}

std::vector<AccountStore::NamedAccount> SqliteAccountStore::named_accounts() {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT id, name, coalesce(name_key, '') FROM accounts "
                 "WHERE name IS NOT NULL ORDER BY id");
  std::vector<NamedAccount> out;
  while (stmt.step()) out.push_back({stmt.column_int(0), stmt.column_text(1), stmt.column_text(2)});
  return out;
}

bool SqliteAccountStore::set_name_key(AccountId id, std::string_view name_key) {
  std::lock_guard lock(mutex_);
  Statement taken(*db_, "SELECT 1 FROM accounts WHERE name_key = ? AND id <> ?");
  if (taken.bind(1, name_key).bind(2, id).step()) return false;
  Statement update(*db_, "UPDATE accounts SET name_key = ? WHERE id = ?");
  update.bind(1, name_key).bind(2, id).run();
  return true;
}

}  // namespace duelhall::storage
