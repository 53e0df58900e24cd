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

// Who is muted: an account, a player of this server's lifetime and the address it came from.
// A mute holds each of them that is known, so that signing out (or in as someone else, or
// coming back as a new guest from the same address) does not lift it.
struct MuteKey {
  AccountId account = 0;
  uint64_t player = 0;
  std::string address;
};

inline constexpr size_t kMaxReasonBytes = 500;

// Whether a sanction that lapses at `expires_ms` (0: never) still holds at `now`.
inline bool in_force(int64_t expires_ms, int64_t now) { return expires_ms == 0 || expires_ms > now; }

// The widest address ban a role may set: a moderator down to a /16 (IPv4) or /32 (IPv6), an
// admin down to a /8 or /16. Never the whole Internet.
unsigned min_ban_prefix(Role role, bool ipv4);

enum class UnbanOutcome { kLifted, kNoSuchBan, kProtected };

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
  // The stored bans are read again when the copy is more
  // than kReloadMs old, so that `duelhall admin unban` reaches a running server.
  std::optional<Sanction> address_ban(const std::string& address);
  // The account's ban in force, or a kick's hold on it (kind "kick"), or nullopt.
  std::optional<Sanction> account_ban(AccountId id);
  // A kick's hold on the address (kind "kick"): it keeps out new guests from there, not the
  // accounts that share the address.
  std::optional<Sanction> address_hold(const std::string& address);
  static constexpr int64_t kReloadMs = 2000;

  // A kick holds the account (0: none) and the address (empty: none) out for `seconds`, in
  // memory: the account's next Hello or sign-in within it, and a guest's Hello from the address,
  // are refused as a ban would be.
  void hold_out(AccountId account, const std::string& address, uint32_t seconds,
                const std::string& reason);
  // `seconds` 0: for good. Stored and audited; the new ban.
  storage::BanRecord ban_account(const std::string& actor, const AccountView& target,
                                 uint32_t seconds, const std::string& reason);
  // `prefix` as AddressPrefix::text() gives it.
  storage::BanRecord ban_address(const std::string& actor, const std::string& prefix,
                                 uint32_t seconds, const std::string& reason);
  // Lifts a ban in force. Only a role at least that of the ban's author may (kProtected
  // otherwise); the command line acts as an admin.
  UnbanOutcome unban(const std::string& actor, Role actor_role, int64_t ban_id);
  // The ids of the bans in force whose address prefix or account name is `target` (a prefix is
  // compared in its stored form, so "10.1.2.3/16" finds the ban of 10.1.0.0/16).
  std::vector<int64_t> bans_on(const std::string& target);
  std::vector<storage::BanRecord> bans();

  // Mutes `key` and, in memory, the player and address of each of `connections` (the target's
  // live connections; their account is ignored).
  void mute(const std::string& actor, const MuteKey& key, const std::string& target,
            uint32_t seconds, const std::string& reason,
            const std::vector<MuteKey>& connections = {});
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
  // The role of the account named `name` (kNone when there is none).
  Role role_named(const std::string& name);
  void reload_if_stale();
  bool muted_locked(const MuteKey& key, int64_t now, storage::MuteRecord& out);

  // A mute of a player or an address (in memory), and the account and player it was given to,
  // so that unmuting either lifts it.
  struct HeldMute {
    storage::MuteRecord record;
    AccountId account = 0;
    uint64_t player = 0;
  };

  AccountService& accounts_;
  storage::ModerationStore& store_;
  Clock now_;
  std::mutex mutex_;
  std::vector<storage::BanRecord> bans_;  // in force (expired ones are skipped when read)
  std::map<AccountId, storage::MuteRecord> account_mutes_;
  std::map<uint64_t, HeldMute> player_mutes_;      // by player id, not stored
  std::map<std::string, HeldMute> address_mutes_;  // by address, not stored
  std::map<AccountId, Sanction> account_holds_;    // kicks, not stored
  std::map<std::string, Sanction> address_holds_;
  int64_t loaded_ms_ = 0;
};

}  // namespace duelhall::accounts
