// The accounts service: registration, sign-in and sessions, password changes, deletion, guest
// identities, and the ratings of rated matches. It speaks in result codes of the protocol and
// reaches its data only through storage::AccountStore, so any backend serves it.
//
// Sessions are 256-bit random tokens handed to their owner once; the store keeps only their
// SHA-256. A session lasts `session_days` from sign-in, and ends earlier when its owner signs out,
// changes the password (every other session ends) or deletes the account.
//
// Every attempt is counted before any password is hashed (AccountLimits): past a limit the answer
// is TOO_MANY_ATTEMPTS with the wait, and a wrong password says how many tries are left.
//
// Thread-safe: every method may be called from any thread. Hashing a password takes tens of
// milliseconds: the server runs the methods that hash on its HashingPool, off the I/O threads.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/account_limits.hpp"
#include "accounts/glicko2.hpp"
#include "result.pb.h"
#include "storage/account_store.hpp"

namespace duelhall::accounts {

using storage::AccountId;

// A rated game's score for `seat` against `opponent` from the match's winners (bit i: seat i
// won): 1 a win, 0 a loss, 0.5 a draw (both or neither won).
double score_against(uint64_t winners, int seat, int opponent);

struct AccountView {
  AccountId id = 0;
  std::string name;  // empty for a guest
  bool guest = false;
};

struct SessionGrant {
  Answer answer;
  AccountView account;
  std::string session_token;  // to the owner only, never logged
  std::string session_hash;
  int64_t expires_ms = 0;
};

// One seat's rating change after a rated match.
struct RatingChange {
  int seat = 0;
  AccountId account = 0;
  glicko2::Rating before;
  glicko2::Rating after;
  bool provisional = true;  // after the change
};

// Lists of accounts' games and rankings, over the WebSocket and HTTP alike: rows per page when
// none is asked, and at most.
inline constexpr uint32_t kDefaultPage = 20;
inline constexpr uint32_t kMaxPage = 100;

class AccountService {
 public:
  using Clock = std::function<int64_t()>;  // Unix milliseconds
  AccountService(storage::AccountStore& store, AccountsConfig config, Clock now_ms);

  storage::AccountStore& store() { return store_; }
  const AccountsConfig& config() const { return config_; }
  int64_t now_ms() const { return now_(); }
  bool provisional(double deviation) const { return deviation > config_.provisional_deviation; }

  // Registers `name`; with `guest`, that guest account becomes the new account (its history
  // stays). Signs the new account in.
  SessionGrant register_account(std::string_view name, std::string_view password,
                                const std::string& address, std::optional<AccountId> guest);
  SessionGrant sign_in(std::string_view name, std::string_view password,
                       const std::string& address);
  // Revokes the session of `session_hash` (SHA-256 of its token).
  void sign_out(std::string_view session_hash);
  // Ends every other session of the account. A new password equal to the old one is refused
  // (WEAK_PASSWORD) before anything is hashed.
  Answer change_password(AccountId id, std::string_view old_password, std::string_view new_password,
                         std::string_view keep_session_hash, const std::string& address);
  Answer delete_account(AccountId id, std::string_view password, const std::string& address);

  // The account a session token belongs to; nullopt: unknown, expired or revoked.
  std::optional<AccountView> from_session(std::string_view token);
  // The guest account of a browser's guest token (64 hex digits it drew once and keeps);
  // nullopt: a malformed token, or a new one from an address that made too many new guests.
  std::optional<AccountView> guest(std::string_view guest_token, const std::string& address);
  // Removes the guest identities older than `guest_days` that never sat in a match nor were
  // named by moderation; returns how many.
  size_t expire_guests();
  // Whether `name` is an account's, for a guest asking to go by it from `address`: such hits are
  // counted per address (they tell which names exist), and past the limit every such question
  // is refused with the wait, whatever the name.
  std::optional<Answer> guest_name_refused(std::string_view name, const std::string& address);
  std::optional<AccountView> find(std::string_view name);
  std::optional<AccountView> find(AccountId id);

  // A rated match ended: seat i won if `winners` has bit i. Applies one rating period to both
  // accounts, stores it and returns the changes; empty when the match is not rated, not two
  // accounts, or was already rated (a replayed end after a restart).
  std::vector<RatingChange> rate_match(int64_t match_id, std::string_view ruleset,
                                       uint64_t winners);

 private:
  SessionGrant open_session(const AccountView& account);
  std::optional<Answer> check_new_password(std::string_view password);
  // Whether `password` proves the signed-in account `id` is its owner's, before a change only
  // the owner may make; the refusal otherwise. Counted as a sign-in from `address` is.
  std::optional<Answer> confirm_owner(AccountId id, std::string_view password,
                                      const std::string& address);
  glicko2::Rating current(AccountId id, std::string_view ruleset, int64_t now, int64_t* games);

  storage::AccountStore& store_;
  const AccountsConfig config_;
  Clock now_;
  AccountLimits limits_;
};

// The hash under which a session or guest token is stored and looked up (SHA-256).
std::string session_hash(std::string_view token);
// The hex form of a 32-byte hash (for logs and tests, never for secrets).
std::string to_hex(std::string_view bytes);

}  // namespace duelhall::accounts
