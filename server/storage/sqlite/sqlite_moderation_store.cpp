// SqliteAccountStore's moderation half: roles on the accounts, and the ModerationStore tables of
// migration 5 (bans, mutes, reports, audit_log, ignores), on the accounts' connection.
#include "storage/sqlite/sqlite_account_store.hpp"

namespace duelhall::storage {
namespace {

// An expiry of 0 ("for good") is stored as NULL.
void bind_expiry(Statement& stmt, int index, int64_t expires_ms) {
  if (expires_ms == 0) {
    stmt.bind_null(index);
  } else {
    stmt.bind(index, expires_ms);
  }
}
int64_t expiry_of(const Statement& stmt, int index) {
  return stmt.column_null(index) ? 0 : stmt.column_int(index);
}

constexpr const char* kReportColumns =
    "SELECT id, reporter, coalesce(reporter_account, 0), target_name, "
    "coalesce(target_account, 0), coalesce(target_player, 0), message, coalesce(match_id, 0), "
    "reason, created_at, resolved_at IS NOT NULL, coalesce(resolved_by, ''), coalesce(note, '') "
    "FROM reports ";

ReportRecord read_report(const Statement& stmt) {
  ReportRecord r;
  r.id = stmt.column_int(0);
  r.reporter = stmt.column_text(1);
  r.reporter_account = stmt.column_int(2);
  r.target_name = stmt.column_text(3);
  r.target_account = stmt.column_int(4);
  r.target_player = static_cast<uint64_t>(stmt.column_int(5));
  r.message = stmt.column_text(6);
  r.match_id = static_cast<uint64_t>(stmt.column_int(7));
  r.reason = stmt.column_text(8);
  r.created_ms = stmt.column_int(9);
  r.resolved = stmt.column_int(10) != 0;
  r.resolved_by = stmt.column_text(11);
  r.note = stmt.column_text(12);
  return r;
}

// The account ids in the statement's first column (an ignore or follow list).
std::vector<AccountId> account_ids(Statement& stmt) {
  std::vector<AccountId> out;
  while (stmt.step()) out.push_back(stmt.column_int(0));
  return out;
}

}  // namespace

void SqliteAccountStore::set_role(AccountId id, std::string_view role) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "UPDATE accounts SET role = ? WHERE id = ?");
  if (role.empty()) {
    stmt.bind_null(1);
  } else {
    stmt.bind(1, role);
  }
  stmt.bind(2, id).run();
}

std::vector<AccountRecord> SqliteAccountStore::staff() {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT id, coalesce(name, ''), '', guest_hash IS NOT NULL, "
                 "deleted_at IS NOT NULL, created_at, coalesce(role, '') FROM accounts "
                 "WHERE role IS NOT NULL AND deleted_at IS NULL ORDER BY name_key");
  std::vector<AccountRecord> out;
  while (auto a = read_account(stmt)) out.push_back(std::move(*a));
  return out;
}

int64_t SqliteAccountStore::add_ban(const BanRecord& ban) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "INSERT INTO bans (account_id, account_name, address, reason, by_name, "
                 "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  if (ban.account == 0) {
    stmt.bind_null(1);
  } else {
    stmt.bind(1, ban.account);
  }
  stmt.bind(2, ban.account_name).bind(3, ban.address).bind(4, ban.reason).bind(5, ban.by);
  stmt.bind(6, ban.created_ms);
  bind_expiry(stmt, 7, ban.expires_ms);
  stmt.run();
  return db_->query_int("SELECT last_insert_rowid()");
}

bool SqliteAccountStore::lift_ban(int64_t id, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "UPDATE bans SET lifted_at = ? WHERE id = ? AND lifted_at IS NULL");
  stmt.bind(1, now_ms).bind(2, id).run();
  return db_->changes() > 0;
}

std::vector<BanRecord> SqliteAccountStore::active_bans(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT id, coalesce(account_id, 0), account_name, address, reason, by_name, "
                 "created_at, expires_at FROM bans WHERE lifted_at IS NULL AND "
                 "(expires_at IS NULL OR expires_at > ?) ORDER BY id");
  stmt.bind(1, now_ms);
  std::vector<BanRecord> out;
  while (stmt.step()) {
    BanRecord b;
    b.id = stmt.column_int(0);
    b.account = stmt.column_int(1);
    b.account_name = stmt.column_text(2);
    b.address = stmt.column_text(3);
    b.reason = stmt.column_text(4);
    b.by = stmt.column_text(5);
    b.created_ms = stmt.column_int(6);
    b.expires_ms = expiry_of(stmt, 7);
    out.push_back(std::move(b));
  }
  return out;
}

void SqliteAccountStore::set_mute(const MuteRecord& mute) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "INSERT OR REPLACE INTO mutes (account_id, reason, by_name, created_at, "
                 "expires_at) VALUES (?, ?, ?, ?, ?)");
  stmt.bind(1, mute.account).bind(2, mute.reason).bind(3, mute.by).bind(4, mute.created_ms);
  bind_expiry(stmt, 5, mute.expires_ms);
  stmt.run();
}

bool SqliteAccountStore::clear_mute(AccountId account) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "DELETE FROM mutes WHERE account_id = ?");
  stmt.bind(1, account).run();
  return db_->changes() > 0;
}

std::vector<MuteRecord> SqliteAccountStore::active_mutes(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT account_id, reason, by_name, created_at, expires_at FROM mutes "
                 "WHERE expires_at IS NULL OR expires_at > ?");
  stmt.bind(1, now_ms);
  std::vector<MuteRecord> out;
  while (stmt.step()) {
    out.push_back({stmt.column_int(0), stmt.column_text(1), stmt.column_text(2), stmt.column_int(3),
                   expiry_of(stmt, 4)});
  }
  return out;
}

int64_t SqliteAccountStore::add_report(const ReportRecord& r) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "INSERT INTO reports (reporter, reporter_account, target_name, target_account, "
                 "target_player, message, match_id, reason, created_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  stmt.bind(1, r.reporter).bind(2, r.reporter_account).bind(3, r.target_name);
  stmt.bind(4, r.target_account).bind(5, static_cast<int64_t>(r.target_player));
  stmt.bind(6, r.message).bind(7, static_cast<int64_t>(r.match_id)).bind(8, r.reason);
  stmt.bind(9, r.created_ms).run();
  return db_->query_int("SELECT last_insert_rowid()");
}

std::vector<ReportRecord> SqliteAccountStore::reports(bool include_resolved, size_t limit) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kReportColumns) +
                           (include_resolved ? "" : "WHERE resolved_at IS NULL ") +
                           "ORDER BY id DESC LIMIT ?");
  stmt.bind(1, static_cast<int64_t>(limit));
  std::vector<ReportRecord> out;
  while (stmt.step()) out.push_back(read_report(stmt));
  return out;
}

std::optional<ReportRecord> SqliteAccountStore::find_report(int64_t id) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kReportColumns) + "WHERE id = ?");
  stmt.bind(1, id);
  if (!stmt.step()) return std::nullopt;
  return read_report(stmt);
}

bool SqliteAccountStore::resolve_report(int64_t id, std::string_view by, std::string_view note,
                                        int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "UPDATE reports SET resolved_at = ?, resolved_by = ?, note = ? "
                 "WHERE id = ? AND resolved_at IS NULL");
  stmt.bind(1, now_ms).bind(2, by).bind(3, note).bind(4, id).run();
  return db_->changes() > 0;
}

int64_t SqliteAccountStore::add_audit(const AuditRecord& e) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "INSERT INTO audit_log (actor, action, target, reason, created_at, expires_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)");
  stmt.bind(1, e.actor).bind(2, e.action).bind(3, e.target).bind(4, e.reason);
  stmt.bind(5, e.created_ms);
  bind_expiry(stmt, 6, e.expires_ms);
  stmt.run();
  return db_->query_int("SELECT last_insert_rowid()");
}

std::vector<AuditRecord> SqliteAccountStore::audit(std::optional<int64_t> before, size_t limit) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "SELECT id, actor, action, target, reason, created_at, expires_at FROM audit_log "
                 "WHERE id < ? ORDER BY id DESC LIMIT ?");
  stmt.bind(1, before.value_or(INT64_MAX)).bind(2, static_cast<int64_t>(limit));
  std::vector<AuditRecord> out;
  while (stmt.step()) {
    out.push_back({stmt.column_int(0), stmt.column_text(1), stmt.column_text(2),
                   stmt.column_text(3), stmt.column_text(4), stmt.column_int(5),
                   expiry_of(stmt, 6)});
  }
  return out;
}

std::vector<AccountId> SqliteAccountStore::ignores(AccountId account) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "SELECT ignored_id FROM ignores WHERE account_id = ? ORDER BY ignored_id");
  stmt.bind(1, account);
  return account_ids(stmt);
}

void SqliteAccountStore::set_ignore(AccountId account, AccountId ignored, bool on) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, on ? "INSERT OR IGNORE INTO ignores (account_id, ignored_id) VALUES (?, ?)"
                          : "DELETE FROM ignores WHERE account_id = ? AND ignored_id = ?");
  stmt.bind(1, account).bind(2, ignored).run();
}

std::vector<AccountId> SqliteAccountStore::follows(AccountId account) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "SELECT followed_id FROM follows WHERE account_id = ? ORDER BY rowid");
  stmt.bind(1, account);
  return account_ids(stmt);
}

void SqliteAccountStore::set_follow(AccountId account, AccountId followed, bool on) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, on ? "INSERT OR IGNORE INTO follows (account_id, followed_id) VALUES (?, ?)"
                          : "DELETE FROM follows WHERE account_id = ? AND followed_id = ?");
  stmt.bind(1, account).bind(2, followed).run();
}

}  // namespace duelhall::storage
