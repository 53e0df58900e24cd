// The moderation service: roles, bans, mutes, reports, the audit log and ignores
// (docs/moderation.md). It decides and stores; the lobby finds the connections a decision
// touches and closes or tells them. Data goes through storage::ModerationStore, roles through
// the accounts (storage::AccountStore::set_role).
//
// The bans and mutes in force are kept in memory as well (loaded at start, changed with the
// store), so the handshake and every chat line are checked without a query. An expired one
// simply stops counting. A guest without an account can be muted only for its connection's
// player, in memory (it has no stable identity to store).
//
// Thread-safe: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "accounts/account_service.hpp"
#include "storage/moderation_store.hpp"

namespace duelhall::accounts {

enum class Role { kNone = 0, kModerator = 1, kAdmin = 2 };
// "admin", "moderator", "" (none); nullopt for anything else.
std::optional<Role> parse_role(std::string_view text);
const char* role_name(Role role);

// A ban or a mute as its target is told of it.
struct Sanction {
  std::string kind;  // "ban", "mute"
  std::string reason;
  int64_t expires_ms = 0;  // 0: for good
};
// "banned for good: spam", "muted until 2026-11-24 21:05:00 UTC: spam".
std::string describe(const Sanction& sanction);

// Who is muted: an account, or (a guest without one) a player of this server's lifetime.
struct MuteKey {
  AccountId account = 0;
  uint64_t player = 0;
};

inline constexpr size_t kMaxReasonBytes = 500;

class ModerationService {
 public:
  using Clock = std::function<int64_t()>;  // Unix milliseconds
  // Loads the bans and mutes in force; throws StoreError.
  ModerationService(AccountService& accounts, storage::ModerationStore& store, Clock now_ms);

  AccountService& accounts() { return accounts_; }
  storage::ModerationStore& store() { return store_; }
  int64_t now_ms() const { return now_(); }

  Role role(AccountId id);
  // An admin gives `name` the role, or takes it (kNone). UNKNOWN_TARGET for no such account.
  Answer set_role(const std::string& actor, const std::string& name, Role role);

  // The ban in force on the address (the latest to expire of those that cover it), or nullopt.
  std::optional<Sanction> address_ban(const std::string& address);
  std::optional<Sanction> account_ban(AccountId id);
  // `seconds` 0: for good. Stored and audited; the new ban.
  storage::BanRecord ban_account(const std::string& actor, const AccountView& target,
                                 uint32_t seconds, const std::string& reason);
  // `prefix` as AddressPrefix::text() gives it.
  storage::BanRecord ban_address(const std::string& actor, const std::string& prefix,
                                 uint32_t seconds, const std::string& reason);
  // false: no such ban in force.
  bool unban(const std::string& actor, int64_t ban_id);
  std::vector<storage::BanRecord> bans();

  void mute(const std::string& actor, const MuteKey& key, const std::string& target,
            uint32_t seconds, const std::string& reason);
  bool unmute(const std::string& actor, const MuteKey& key, const std::string& target);
  std::optional<Sanction> muted(const MuteKey& key);
  // When the mute of `key` ends (0: for good); nullopt when not muted.
  std::optional<int64_t> muted_until(const MuteKey& key);

  // Reads the bans and mutes in force from the store again, replacing the copy in memory (guests'
  // mutes stay): in a cluster, after another node changed them. Throws StoreError.
  void reload();

  // Stores one entry of the audit log.
  void audit(const std::string& actor, const std::string& action, const std::string& target,
             const std::string& reason, int64_t expires_ms = 0);

 private:
  int64_t expiry(uint32_t seconds) const;

  AccountService& accounts_;
  storage::ModerationStore& store_;
  Clock now_;
  std::mutex mutex_;
  std::vector<storage::BanRecord> bans_;  // in force (expired ones are skipped when read)
  std::map<AccountId, storage::MuteRecord> account_mutes_;
  std::map<uint64_t, storage::MuteRecord> guest_mutes_;  // by player id, not stored
};

}  // namespace duelhall::accounts
