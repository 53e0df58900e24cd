// The account commands of the protocol (ClientMessage fields 30 and up, and Hello's session
// and guest tokens), served against the AccountService. The dispatcher hands them over whole
// and applies the outcome to its player (who is an account's now, or a guest again); nothing
// here knows connections, players or matches.
#pragma once

#include <optional>
#include <string>

#include "accounts/account_service.hpp"
#include "envelope.pb.h"

namespace duelhall::accounts {

// What a connection is, as far as accounts go; kept with the connection's state.
struct ConnectionAccount {
  std::string address;                 // the client's IP, for the sign-in limits
  std::optional<AccountView> account;  // a registered account or a guest identity
  std::string session_hash;            // SHA-256 of the session token it signed in with
};

// Sessions a command ended, whose other live connections must end too (docs/accounts.md).
struct EndedSessions {
  enum Kind { kNone, kOne, kAllButOne, kAll } kind = kNone;
  AccountId account = 0;
  std::string session_hash;  // kOne: the ended one; kAllButOne: the one kept
};

struct CommandOutcome {
  ResultCode code = OK;
  std::string reason;
  bool account_changed = false;  // the connection's player must take on `account` now
  uint32_t retry_after_ms = 0;   // TOO_MANY_ATTEMPTS, STORAGE_UNAVAILABLE: the wait
  uint32_t attempts_left = 0;    // WRONG_PASSWORD: the tries left
  EndedSessions ended{};
};

// Whether the command hashes a password (Register, SignIn, ChangePassword, DeleteAccount): the
// server runs those on its HashingPool.
bool hashes_password(const ClientMessage& message);
// STORAGE_UNAVAILABLE's hint: the accounts' store is tried again no sooner.
inline constexpr uint32_t kStoreRetryMs = 1000;
// The outcome's hints on the reply (retry_after_ms, attempts_left).
void set_hints(const CommandOutcome& outcome, ServerMessage& reply);

bool is_account_command(const ClientMessage& message);

// Serves one account command; the reply body goes to `reply`. `service` null: ACCOUNTS_DISABLED.
CommandOutcome serve_account_command(AccountService* service, ConnectionAccount& connection,
                                     const ClientMessage& message, ServerMessage& reply);

// Hello's session_token or guest_token: who the new player is. A bad session is refused, and so
// is a guest's display name that is an account's name; a malformed guest token is ignored (the
// player is then a guest without a stable identity).
CommandOutcome hello_account(AccountService* service, ConnectionAccount& connection,
                             const Hello& hello);

void fill_account(const AccountView& account, AccountInfo& out);
void fill_history_entry(const storage::HistoryEntry& entry, HistoryEntry& out);

}  // namespace duelhall::accounts
