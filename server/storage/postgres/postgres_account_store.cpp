#include "storage/postgres/postgres_account_store.hpp"

#include "storage/account_rows.hpp"
#include "storage/postgres/pg_schema.hpp"

namespace duelhall::storage {
PostgresAccountStore::PostgresAccountStore(const std::string& url) {
  try {
    db_ = std::make_unique<PgConnection>(url);
    pg_migrate(*db_);
  } catch (const StoreError& e) {
    throw StoreError(std::string("cannot open the PostgreSQL account store: ") + e.what());
  }
}

PostgresAccountStore::~PostgresAccountStore() = default;

std::optional<AccountRecord> PostgresAccountStore::read_account(const PgResult& rows, int row) {
  if (rows.rows() <= row) return std::nullopt;
  return account_from_row(PgRow{rows, row});
}

std::optional<AccountId> PostgresAccountStore::create_account(std::string_view name,
                                                              std::string_view name_key,
                                                              std::string_view password_hash,
                                                              int64_t now_ms) {
  std::lock_guard lock(mutex_);
  // In a transaction, so that a retry after a lost connection (pg.hpp) never finds its own
  // insert and calls the name taken.
  PgTransaction tx(*db_);
  // Two nodes registering the same name at once: one insert wins, the other gets no row.
  const PgResult inserted = db_->query(
      "INSERT INTO accounts (name, name_key, password_hash, created_at) VALUES ($1, $2, $3, $4) "
      "ON CONFLICT (name_key) DO NOTHING RETURNING id",
      PgParams().add(name).add(name_key).add(password_hash).add(now_ms));
  tx.commit();
  if (inserted.rows() == 0) return std::nullopt;
  return inserted.integer(0, 0);
}

AccountId PostgresAccountStore::guest_account(std::string_view guest_hash, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult inserted = db_->query(
      "INSERT INTO accounts (guest_hash, created_at) VALUES ($1, $2) "
      "ON CONFLICT (guest_hash) DO NOTHING RETURNING id",
      PgParams().add_bytes(guest_hash).add(now_ms));
  if (inserted.rows() == 1) return inserted.integer(0, 0);
  const PgResult found =
      db_->query("SELECT id FROM accounts WHERE guest_hash = $1", PgParams().add_bytes(guest_hash));
  if (found.rows() == 0) throw StoreError("the guest account vanished while being created");
  return found.integer(0, 0);
}

bool PostgresAccountStore::promote_guest(AccountId guest, std::string_view name,
                                         std::string_view name_key,
                                         std::string_view password_hash) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  if (db_->query("SELECT 1 FROM accounts WHERE name_key = $1", PgParams().add(name_key)).rows()) {
    return false;
  }
  const PgResult updated = db_->query(
      "UPDATE accounts SET name = $1, name_key = $2, password_hash = $3, guest_hash = NULL "
      "WHERE id = $4 AND guest_hash IS NOT NULL",
      PgParams().add(name).add(name_key).add(password_hash).add(guest));
  if (updated.affected() != 1) return false;
  tx.commit();
  return true;
}

std::optional<AccountRecord> PostgresAccountStore::find_account(AccountId id) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return read_account(
      db_->query(std::string(kAccountColumns) + "WHERE id = $1", PgParams().add(id)));
}

std::optional<AccountRecord> PostgresAccountStore::find_by_key(std::string_view name_key) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return read_account(
      db_->query(std::string(kAccountColumns) + "WHERE name_key = $1", PgParams().add(name_key)));
}

void PostgresAccountStore::set_password(AccountId id, std::string_view password_hash) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->query("UPDATE accounts SET password_hash = $1 WHERE id = $2",
             PgParams().add(password_hash).add(id));
}

void PostgresAccountStore::delete_account(AccountId id, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  db_->query(
      "UPDATE match_seats SET name = 'deleted player' WHERE EXISTS (SELECT 1 FROM "
      "match_accounts ma WHERE ma.match_id = match_seats.match_id AND ma.seat = "
      "match_seats.seat AND ma.account_id = $1)",
      PgParams().add(id));
  db_->query("DELETE FROM sessions WHERE account_id = $1", PgParams().add(id));
  db_->query("DELETE FROM ratings WHERE account_id = $1", PgParams().add(id));
  db_->query("DELETE FROM decks WHERE owner = $1", PgParams().add(id));
  db_->query(
      "UPDATE accounts SET name = NULL, name_key = NULL, password_hash = NULL, "
      "guest_hash = NULL, role = NULL, deleted_at = $1 WHERE id = $2",
      PgParams().add(now_ms).add(id));
  tx.commit();
}

void PostgresAccountStore::add_session(std::string_view token_hash, AccountId id, int64_t now_ms,
                                       int64_t expires_ms) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  // Expired sessions go as new ones come, so the table holds only live ones (and a few).
  db_->query("DELETE FROM sessions WHERE expires_at <= $1", PgParams().add(now_ms));
  db_->query(
      "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) "
      "VALUES ($1, $2, $3, $4)",
      PgParams().add_bytes(token_hash).add(id).add(now_ms).add(expires_ms));
  tx.commit();
}

std::optional<AccountId> PostgresAccountStore::session_account(std::string_view token_hash,
                                                               int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult found = db_->query(
      "SELECT s.account_id FROM sessions s JOIN accounts a ON a.id = s.account_id "
      "WHERE s.token_hash = $1 AND s.expires_at > $2 AND a.deleted_at IS NULL",
      PgParams().add_bytes(token_hash).add(now_ms));
  if (found.rows() == 0) return std::nullopt;
  return found.integer(0, 0);
}

void PostgresAccountStore::revoke_session(std::string_view token_hash) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->query("DELETE FROM sessions WHERE token_hash = $1", PgParams().add_bytes(token_hash));
}

void PostgresAccountStore::revoke_sessions(AccountId id, std::string_view keep_hash) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->query("DELETE FROM sessions WHERE account_id = $1 AND token_hash != $2",
             PgParams().add(id).add_bytes(keep_hash));
}

void PostgresAccountStore::record_seats(int64_t match_id, const std::vector<SeatAccount>& seats,
                                        bool rated) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  for (const SeatAccount& seat : seats) {
    db_->query(
        "INSERT INTO match_accounts (match_id, seat, account_id, rated) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT DO NOTHING",
        PgParams()
            .add(match_id)
            .add(int64_t{seat.seat})
            .add(seat.account)
            .add(std::string_view(rated ? "true" : "false")));
  }
  tx.commit();
}

std::vector<SeatAccount> PostgresAccountStore::match_seats(int64_t match_id, bool* rated) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT seat, account_id, rated, rating_before, rating_after, deviation_after "
      "FROM match_accounts WHERE match_id = $1 ORDER BY seat",
      PgParams().add(match_id));
  std::vector<SeatAccount> out;
  if (rated) *rated = false;
  for (int r = 0; r < rows.rows(); ++r) {
    SeatAccount s;
    s.seat = static_cast<int>(rows.integer(r, 0));
    s.account = rows.integer(r, 1);
    if (rated && rows.boolean(r, 2)) *rated = true;
    if (!rows.null(r, 3)) s.rating_before = rows.real(r, 3);
    if (!rows.null(r, 4)) s.rating_after = rows.real(r, 4);
    if (!rows.null(r, 5)) s.deviation_after = rows.real(r, 5);
    out.push_back(s);
  }
  return out;
}

std::vector<RatingRecord> PostgresAccountStore::ratings(AccountId id) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT ruleset, rating, deviation, volatility, games, updated_at FROM ratings "
      "WHERE account_id = $1 ORDER BY ruleset",
      PgParams().add(id));
  std::vector<RatingRecord> out;
  for (int r = 0; r < rows.rows(); ++r) {
    out.push_back({rows.text(r, 0), rows.real(r, 1), rows.real(r, 2), rows.real(r, 3),
                   rows.integer(r, 4), rows.integer(r, 5)});
  }
  return out;
}

bool PostgresAccountStore::apply_ratings(
    int64_t match_id, std::string_view ruleset, const std::vector<SeatAccount>& changes,
    const std::vector<std::pair<AccountId, RatingRecord>>& ratings) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  // Serialises two nodes applying the same match's ratings: the second sees the first's.
  db_->query("SELECT pg_advisory_xact_lock($1)", PgParams().add(match_id));
  if (db_->query("SELECT 1 FROM match_accounts WHERE match_id = $1 AND rating_after IS NOT NULL",
                 PgParams().add(match_id))
          .rows()) {
    return false;
  }
  for (const SeatAccount& c : changes) {
    db_->query(
        "UPDATE match_accounts SET rating_before = $1, rating_after = $2, deviation_after = $3 "
        "WHERE match_id = $4 AND seat = $5",
        PgParams()
            .add_real(c.rating_before.value_or(0))
            .add_real(c.rating_after.value_or(0))
            .add_real(c.deviation_after.value_or(0))
            .add(match_id)
            .add(int64_t{c.seat}));
  }
  for (const auto& [account, r] : ratings) {
    db_->query(
        "INSERT INTO ratings (account_id, ruleset, rating, deviation, volatility, games, "
        "updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, ruleset) DO "
        "UPDATE SET rating = excluded.rating, deviation = excluded.deviation, volatility = "
        "excluded.volatility, games = excluded.games, updated_at = excluded.updated_at",
        PgParams()
            .add(account)
            .add(ruleset)
            .add_real(r.rating)
            .add_real(r.deviation)
            .add_real(r.volatility)
            .add(r.games)
            .add(r.updated_ms));
  }
  tx.commit();
  return true;
}

std::vector<HistoryOpponent> PostgresAccountStore::opponents(int64_t match_id, int seat) {
  const PgResult rows = db_->query(
      "SELECT s.seat, s.name, coalesce(a.id, 0), a.deleted_at IS NOT NULL, a.name "
      "FROM match_seats s LEFT JOIN match_accounts ma ON ma.match_id = s.match_id "
      "AND ma.seat = s.seat LEFT JOIN accounts a ON a.id = ma.account_id "
      "WHERE s.match_id = $1 AND s.seat != $2 ORDER BY s.seat",
      PgParams().add(match_id).add(int64_t{seat}));
  std::vector<HistoryOpponent> out;
  for (int r = 0; r < rows.rows(); ++r) {
    HistoryOpponent o;
    o.seat = static_cast<int>(rows.integer(r, 0));
    o.account = rows.integer(r, 2);
    if (rows.boolean(r, 3)) {
      o.name = "deleted player";
    } else if (!rows.null(r, 4)) {
      o.name = rows.text(r, 4);  // a registered account: its name, not the typed one
    } else {
      o.name = rows.text(r, 1);
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<HistoryEntry> PostgresAccountStore::history(AccountId id, size_t limit,
                                                        std::optional<int64_t> before) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      std::string(kHistoryColumns) +
          "WHERE ma.account_id = $1 AND m.status != 'live' AND m.id < $2 "
          "ORDER BY m.id DESC LIMIT $3",
      PgParams().add(id).add(before.value_or(INT64_MAX)).add(static_cast<int64_t>(limit)));
  std::vector<HistoryEntry> out;
  for (int r = 0; r < rows.rows(); ++r) {
    out.push_back(history_from_row(PgRow{rows, r}));
  }
  for (HistoryEntry& e : out) e.opponents = opponents(e.match_id, e.seat);
  return out;
}

std::vector<LeaderboardRow> PostgresAccountStore::leaderboard(std::string_view ruleset,
                                                              double max_deviation, size_t offset,
                                                              size_t limit) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT a.id, a.name, r.rating, r.deviation, r.games FROM ratings r "
      "JOIN accounts a ON a.id = r.account_id WHERE r.ruleset = $1 AND "
      "r.deviation <= $2 AND a.deleted_at IS NULL "
      "ORDER BY r.rating DESC, a.id LIMIT $3 OFFSET $4",
      PgParams()
          .add(ruleset)
          .add_real(max_deviation)
          .add(static_cast<int64_t>(limit))
          .add(static_cast<int64_t>(offset)));
  std::vector<LeaderboardRow> out;
  int64_t rank = static_cast<int64_t>(offset);
  for (int r = 0; r < rows.rows(); ++r) {
    out.push_back({++rank, rows.integer(r, 0), rows.text(r, 1), rows.real(r, 2), rows.real(r, 3),
                   rows.integer(r, 4)});
  }
  return out;
}

std::vector<AccountStore::NamedAccount> PostgresAccountStore::named_accounts() {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT id, name, coalesce(name_key, '') FROM accounts WHERE name IS NOT NULL ORDER BY id");
  std::vector<NamedAccount> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back({rows.integer(row, 0), rows.text(row, 1), rows.text(row, 2)});
  }
  return out;
}

bool PostgresAccountStore::set_name_key(AccountId id, std::string_view name_key) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return db_->query(
                "UPDATE accounts SET name_key = $1 WHERE id = $2 AND NOT EXISTS "
                "(SELECT 1 FROM accounts WHERE name_key = $1 AND id <> $2)",
                PgParams().add(name_key).add(id))
             .affected() == 1;
}

}  // namespace duelhall::storage
