// PostgresAccountStore's moderation half: roles on the accounts, and the ModerationStore tables of
// migration 2 of pg_schema.cpp (bans, mutes, reports, audit_log, ignores), on the accounts'
// connection. The same queries as sqlite_moderation_store.cpp, in PostgreSQL's dialect.
#include "storage/postgres/postgres_account_store.hpp"

namespace duelhall::storage {
namespace {

// An expiry of 0 ("for good") is stored as NULL.
PgParams& add_expiry(PgParams& params, int64_t expires_ms) {
  return expires_ms == 0 ? params.add_null() : params.add(expires_ms);
}
int64_t expiry_of(const PgResult& rows, int row, int column) {
  return rows.null(row, column) ? 0 : rows.integer(row, column);
}

constexpr const char* kReportColumns =
    "SELECT id, reporter, coalesce(reporter_account, 0), target_name, "
    "coalesce(target_account, 0), coalesce(target_player, 0), message, coalesce(match_id, 0), "
    "reason, created_at, resolved_at IS NOT NULL, coalesce(resolved_by, ''), coalesce(note, '') "
    "FROM reports ";

ReportRecord read_report(const PgResult& rows, int row) {
  ReportRecord r;
  r.id = rows.integer(row, 0);
  r.reporter = rows.text(row, 1);
  r.reporter_account = rows.integer(row, 2);
  r.target_name = rows.text(row, 3);
  r.target_account = rows.integer(row, 4);
  r.target_player = static_cast<uint64_t>(rows.integer(row, 5));
  r.message = rows.text(row, 6);
  r.match_id = static_cast<uint64_t>(rows.integer(row, 7));
  r.reason = rows.text(row, 8);
  r.created_ms = rows.integer(row, 9);
  r.resolved = rows.boolean(row, 10);
  r.resolved_by = rows.text(row, 11);
  r.note = rows.text(row, 12);
  return r;
}

// The account ids in the rows' first column (an ignore or follow list).
std::vector<AccountId> account_ids(const PgResult& rows) {
  std::vector<AccountId> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(rows.integer(row, 0));
  return out;
}

}  // namespace

void PostgresAccountStore::set_role(AccountId id, std::string_view role) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  PgParams params;
  if (role.empty()) {
    params.add_null();
  } else {
    params.add(role);
  }
  db_->query("UPDATE accounts SET role = $1 WHERE id = $2", params.add(id));
}

std::vector<AccountRecord> PostgresAccountStore::staff() {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT id, coalesce(name, ''), '', guest_hash IS NOT NULL, deleted_at IS NOT NULL, "
      "created_at, coalesce(role, '') FROM accounts "
      "WHERE role IS NOT NULL AND deleted_at IS NULL ORDER BY name_key");
  std::vector<AccountRecord> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(*read_account(rows, row));
  return out;
}

int64_t PostgresAccountStore::add_ban(const BanRecord& ban) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);  // its insert is not idempotent (pg.hpp)
  PgParams params;
  if (ban.account == 0) {
    params.add_null();
  } else {
    params.add(ban.account);
  }
  params.add(ban.account_name).add(ban.address).add(ban.reason).add(ban.by).add(ban.created_ms);
  const int64_t id =
      db_->query(
             "INSERT INTO bans (account_id, account_name, address, reason, by_name, created_at, "
             "expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
             add_expiry(params, ban.expires_ms))
          .integer(0, 0);
  tx.commit();
  return id;
}

bool PostgresAccountStore::lift_ban(int64_t id, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return db_->query("UPDATE bans SET lifted_at = $1 WHERE id = $2 AND lifted_at IS NULL",
                    PgParams().add(now_ms).add(id))
             .affected() > 0;
}

std::vector<BanRecord> PostgresAccountStore::active_bans(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT id, coalesce(account_id, 0), account_name, address, reason, by_name, created_at, "
      "expires_at FROM bans WHERE lifted_at IS NULL AND (expires_at IS NULL OR expires_at > $1) "
      "ORDER BY id",
      PgParams().add(now_ms));
  std::vector<BanRecord> out;
  for (int row = 0; row < rows.rows(); ++row) {
    BanRecord b;
    b.id = rows.integer(row, 0);
    b.account = rows.integer(row, 1);
    b.account_name = rows.text(row, 2);
    b.address = rows.text(row, 3);
    b.reason = rows.text(row, 4);
    b.by = rows.text(row, 5);
    b.created_ms = rows.integer(row, 6);
    b.expires_ms = expiry_of(rows, row, 7);
    out.push_back(std::move(b));
  }
  return out;
}

void PostgresAccountStore::set_mute(const MuteRecord& mute) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  PgParams params;
  params.add(mute.account).add(mute.reason).add(mute.by).add(mute.created_ms);
  db_->query(
      "INSERT INTO mutes (account_id, reason, by_name, created_at, expires_at) "
      "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO UPDATE SET "
      "reason = excluded.reason, by_name = excluded.by_name, created_at = excluded.created_at, "
      "expires_at = excluded.expires_at",
      add_expiry(params, mute.expires_ms));
}

bool PostgresAccountStore::clear_mute(AccountId account) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return db_->query("DELETE FROM mutes WHERE account_id = $1", PgParams().add(account)).affected() >
         0;
}

std::vector<MuteRecord> PostgresAccountStore::active_mutes(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT account_id, reason, by_name, created_at, expires_at FROM mutes "
      "WHERE expires_at IS NULL OR expires_at > $1",
      PgParams().add(now_ms));
  std::vector<MuteRecord> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back({rows.integer(row, 0), rows.text(row, 1), rows.text(row, 2), rows.integer(row, 3),
                   expiry_of(rows, row, 4)});
  }
  return out;
}

int64_t PostgresAccountStore::add_report(const ReportRecord& r) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);  // its insert is not idempotent (pg.hpp)
  PgParams params;
  params.add(r.reporter).add(r.reporter_account).add(r.target_name).add(r.target_account);
  params.add(static_cast<int64_t>(r.target_player)).add(r.message);
  params.add(static_cast<int64_t>(r.match_id)).add(r.reason).add(r.created_ms);
  const int64_t id =
      db_->query(
             "INSERT INTO reports (reporter, reporter_account, target_name, target_account, "
             "target_player, message, match_id, reason, created_at) "
             "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
             params)
          .integer(0, 0);
  tx.commit();
  return id;
}

std::vector<ReportRecord> PostgresAccountStore::reports(bool include_resolved, size_t limit) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(std::string(kReportColumns) +
                                       (include_resolved ? "" : "WHERE resolved_at IS NULL ") +
                                       "ORDER BY id DESC LIMIT $1",
                                   PgParams().add(static_cast<int64_t>(limit)));
  std::vector<ReportRecord> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_report(rows, row));
  return out;
}

std::optional<ReportRecord> PostgresAccountStore::find_report(int64_t id) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows =
      db_->query(std::string(kReportColumns) + "WHERE id = $1", PgParams().add(id));
  if (rows.rows() == 0) return std::nullopt;
  return read_report(rows, 0);
}

bool PostgresAccountStore::resolve_report(int64_t id, std::string_view by, std::string_view note,
                                          int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return db_->query(
                "UPDATE reports SET resolved_at = $1, resolved_by = $2, note = $3 "
                "WHERE id = $4 AND resolved_at IS NULL",
                PgParams().add(now_ms).add(by).add(note).add(id))
             .affected() > 0;
}

int64_t PostgresAccountStore::add_audit(const AuditRecord& e) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);  // its insert is not idempotent (pg.hpp)
  PgParams params;
  params.add(e.actor).add(e.action).add(e.target).add(e.reason).add(e.created_ms);
  const int64_t id =
      db_->query(
             "INSERT INTO audit_log (actor, action, target, reason, created_at, expires_at) "
             "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
             add_expiry(params, e.expires_ms))
          .integer(0, 0);
  tx.commit();
  return id;
}

std::vector<AuditRecord> PostgresAccountStore::audit(std::optional<int64_t> before, size_t limit) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT id, actor, action, target, reason, created_at, expires_at FROM audit_log "
      "WHERE id < $1 ORDER BY id DESC LIMIT $2",
      PgParams().add(before.value_or(INT64_MAX)).add(static_cast<int64_t>(limit)));
  std::vector<AuditRecord> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back({rows.integer(row, 0), rows.text(row, 1), rows.text(row, 2), rows.text(row, 3),
                   rows.text(row, 4), rows.integer(row, 5), expiry_of(rows, row, 6)});
  }
  return out;
}

std::vector<AccountId> PostgresAccountStore::ignores(AccountId account) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows =
      db_->query("SELECT ignored_id FROM ignores WHERE account_id = $1 ORDER BY ignored_id",
                 PgParams().add(account));
  return account_ids(rows);
}

void PostgresAccountStore::set_ignore(AccountId account, AccountId ignored, bool on) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->query(on ? "INSERT INTO ignores (account_id, ignored_id) VALUES ($1, $2) "
                  "ON CONFLICT DO NOTHING"
                : "DELETE FROM ignores WHERE account_id = $1 AND ignored_id = $2",
             PgParams().add(account).add(ignored));
}

std::vector<AccountId> PostgresAccountStore::follows(AccountId account) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      "SELECT followed_id FROM follows WHERE account_id = $1 ORDER BY id", PgParams().add(account));
  return account_ids(rows);
}

void PostgresAccountStore::set_follow(AccountId account, AccountId followed, bool on) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->query(on ? "INSERT INTO follows (account_id, followed_id) VALUES ($1, $2) "
                  "ON CONFLICT DO NOTHING"
                : "DELETE FROM follows WHERE account_id = $1 AND followed_id = $2",
             PgParams().add(account).add(followed));
}

}  // namespace duelhall::storage
