// AccountStore: where accounts, their sessions, their ratings and the accounts that sat in each
// match are kept. One small interface so that a second backend (PostgreSQL, for a cluster) can
// stand beside SqliteAccountStore; the accounts service (server/accounts) reaches it only here.
//
// Contract for every backend:
//  - every method may be called from any thread;
//  - each write is one transaction: it happens whole or not at all (nothing half-created);
//  - secrets arrive already hashed (Argon2id strings for passwords, SHA-256 for session and
//    guest tokens): a backend never sees a password or a token;
//  - failures of the backend itself throw StoreError.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duelhall::storage {

using AccountId = int64_t;

struct AccountRecord {
  AccountId id = 0;
  std::string name;           // empty for a guest and for a deleted account
  std::string password_hash;  // Argon2id string (crypto_pwhash_str); empty for a guest
  bool guest = false;
  bool deleted = false;
  int64_t created_ms = 0;
  std::string role;  // "admin", "moderator" or empty (docs/moderation.md)
};

struct RatingRecord {
  std::string ruleset;
  double rating = 1500.0;
  double deviation = 350.0;
  double volatility = 0.06;
  int64_t games = 0;
  int64_t updated_ms = 0;  // the last rated game (rating periods count from here)
};

// An account that sat in a match, and (once a rated match has ended) its rating change.
struct SeatAccount {
  int seat = 0;
  AccountId account = 0;
  std::optional<double> rating_before;
  std::optional<double> rating_after;
  std::optional<double> deviation_after;
};

struct HistoryOpponent {
  int seat = 0;
  std::string name;  // "deleted player" for a deleted account, "bot" for a bot's seat
  AccountId account = 0;
};

struct HistoryEntry {
  int64_t match_id = 0;
  std::string ruleset;
  std::string status;  // "finished" or "abandoned"
  int seat = 0;
  std::string result;  // "win", "loss", "draw" or "none" (abandoned by the server)
  bool rated = false;
  std::optional<double> rating_before;
  std::optional<double> rating_after;
  int64_t ended_ms = 0;
  std::vector<HistoryOpponent> opponents;
};

struct LeaderboardRow {
  int64_t rank = 0;
  AccountId account = 0;
  std::string name;
  double rating = 0;
  double deviation = 0;
  int64_t games = 0;
};

class AccountStore {
 public:
  virtual ~AccountStore() = default;

  // Accounts. `name_key` is the name folded for comparison: no two accounts share one.
  // nullopt: the key is taken.
  virtual std::optional<AccountId> create_account(std::string_view name, std::string_view name_key,
                                                  std::string_view password_hash,
                                                  int64_t now_ms) = 0;
  // The guest account of a browser's guest token (by its hash), created on first use.
  virtual AccountId guest_account(std::string_view guest_hash, int64_t now_ms) = 0;
  // The guest account of a guest token's hash, if there is one (nothing is created).
  virtual std::optional<AccountId> find_guest(std::string_view guest_hash) = 0;
  // Deletes guest accounts created before `created_before_ms` that no match, ban, mute, report
  // or ignore names (an unused guest); returns how many. A bounded batch per call.
  virtual size_t delete_unused_guests(int64_t created_before_ms) = 0;
  // Turns a guest account into a registered one, keeping its history. false: the key is taken.
  virtual bool promote_guest(AccountId guest, std::string_view name, std::string_view name_key,
                             std::string_view password_hash) = 0;
  virtual std::optional<AccountRecord> find_account(AccountId id) = 0;
  virtual std::optional<AccountRecord> find_by_key(std::string_view name_key) = 0;
  // Every account that has a name, with its key: for a change of how keys are made (look-alike
  // names, accounts/name_skeleton.hpp), which set_name_key applies; false there: another account
  // has that key already.
  struct NamedAccount {
    AccountId id = 0;
    std::string name;
    std::string name_key;
  };
  virtual std::vector<NamedAccount> named_accounts() = 0;
  virtual bool set_name_key(AccountId id, std::string_view name_key) = 0;
  virtual void set_password(AccountId id, std::string_view password_hash) = 0;
  // Deletes the account's name, password, sessions and ratings; its matches stay, and show it as
  // a deleted player.
  virtual void delete_account(AccountId id, int64_t now_ms) = 0;

  // Roles (migration 5): "admin", "moderator", or empty for none.
  virtual void set_role(AccountId id, std::string_view role) = 0;
  // Every account that holds a role, by name.
  virtual std::vector<AccountRecord> staff() = 0;

  // Sessions, by the SHA-256 of their token.
  virtual void add_session(std::string_view token_hash, AccountId id, int64_t now_ms,
                           int64_t expires_ms) = 0;
  // The session's account, if the session exists and has not expired at `now_ms`.
  virtual std::optional<AccountId> session_account(std::string_view token_hash, int64_t now_ms) = 0;
  virtual void revoke_session(std::string_view token_hash) = 0;
  // Every session of the account but `keep_hash` (empty: all of them).
  virtual void revoke_sessions(AccountId id, std::string_view keep_hash) = 0;

  // Matches and ratings.
  virtual void record_seats(int64_t match_id, const std::vector<SeatAccount>& seats,
                            bool rated) = 0;
  virtual std::vector<SeatAccount> match_seats(int64_t match_id, bool* rated = nullptr) = 0;
  // The account's rating in one ruleset, if it has one (read through ratings()).
  std::optional<RatingRecord> rating(AccountId id, std::string_view ruleset) {
    for (RatingRecord& r : ratings(id)) {
      if (r.ruleset == ruleset) return std::move(r);
    }
    return std::nullopt;
  }
  virtual std::vector<RatingRecord> ratings(AccountId id) = 0;
  // Stores the new ratings of a rated match's accounts and each seat's change, in one
  // transaction. false (nothing written): the match's ratings were already applied.
  virtual bool apply_ratings(int64_t match_id, std::string_view ruleset,
                             const std::vector<SeatAccount>& changes,
                             const std::vector<std::pair<AccountId, RatingRecord>>& ratings) = 0;
  // The account's ended matches, newest first; `before`: only matches with a smaller id.
  virtual std::vector<HistoryEntry> history(AccountId id, size_t limit,
                                            std::optional<int64_t> before) = 0;
  // Ratings of `ruleset` with a deviation of at most `max_deviation`, best first.
  virtual std::vector<LeaderboardRow> leaderboard(std::string_view ruleset, double max_deviation,
                                                  size_t offset, size_t limit) = 0;
};

}  // namespace duelhall::storage
