// ModerationStore: where bans, mutes, reports, the audit log, ignores and follows are kept
// (docs/moderation.md). Roles live on the accounts (AccountStore::set_role). One small interface
// so that a PostgreSQL backend can stand beside the SQLite one; the moderation service
// (server/accounts/moderation_service.*) reaches its data only here.
//
// Contract for every backend: as AccountStore's (any thread, each write one transaction,
// failures throw StoreError). Times are Unix milliseconds; an expiry of 0 means "for good".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/account_store.hpp"

namespace duelhall::storage {

struct BanRecord {
  int64_t id = 0;
  AccountId account = 0;     // an account ban (0: an address ban)
  std::string account_name;  // the account's name when it was banned
  std::string address;       // an address ban: "base/prefix", the base masked to the prefix
  std::string reason;
  std::string by;  // the moderator's name
  int64_t created_ms = 0;
  int64_t expires_ms = 0;  // 0: for good
};

struct MuteRecord {
  AccountId account = 0;
  std::string reason;
  std::string by;
  int64_t created_ms = 0;
  int64_t expires_ms = 0;  // 0: for good
};

struct ReportRecord {
  int64_t id = 0;
  std::string reporter;
  AccountId reporter_account = 0;
  std::string target_name;
  AccountId target_account = 0;
  uint64_t target_player = 0;
  std::string message;  // the reported chat line; empty for a report of a player
  uint64_t match_id = 0;
  std::string reason;
  int64_t created_ms = 0;
  bool resolved = false;
  std::string resolved_by;
  std::string note;
};

struct AuditRecord {
  int64_t id = 0;
  std::string actor;
  std::string action;  // kick, mute, unmute, ban, unban, abort, announce, role, resolve
  std::string target;
  std::string reason;
  int64_t created_ms = 0;
  int64_t expires_ms = 0;
};

class ModerationStore {
 public:
  virtual ~ModerationStore() = default;

  // Bans. The id of the new ban; lift_ban false: no such ban in force.
  virtual int64_t add_ban(const BanRecord& ban) = 0;
  virtual bool lift_ban(int64_t id, int64_t now_ms) = 0;
  // The bans not lifted and not expired at `now_ms`, oldest first.
  virtual std::vector<BanRecord> active_bans(int64_t now_ms) = 0;

  // Mutes, one per account (a new one replaces the old). clear_mute false: none was set.
  virtual void set_mute(const MuteRecord& mute) = 0;
  virtual bool clear_mute(AccountId account) = 0;
  virtual std::vector<MuteRecord> active_mutes(int64_t now_ms) = 0;

  // Reports, newest first.
  virtual int64_t add_report(const ReportRecord& report) = 0;
  virtual std::vector<ReportRecord> reports(bool include_resolved, size_t limit) = 0;
  virtual std::optional<ReportRecord> find_report(int64_t id) = 0;
  // false: no such report, or it was resolved already.
  virtual bool resolve_report(int64_t id, std::string_view by, std::string_view note,
                              int64_t now_ms) = 0;

  // The audit log, newest first; `before`: only entries with a smaller id.
  virtual int64_t add_audit(const AuditRecord& entry) = 0;
  virtual std::vector<AuditRecord> audit(std::optional<int64_t> before, size_t limit) = 0;

  // The accounts `account` ignores.
  virtual std::vector<AccountId> ignores(AccountId account) = 0;
  virtual void set_ignore(AccountId account, AccountId ignored, bool on) = 0;

  // The accounts `account` follows (docs/pairing.md), in the order followed.
  virtual std::vector<AccountId> follows(AccountId account) = 0;
  // Following again keeps the first place; unfollowing one not followed changes nothing.
  virtual void set_follow(AccountId account, AccountId followed, bool on) = 0;
};

}  // namespace duelhall::storage
