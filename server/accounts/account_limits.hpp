// The accounts' limits (docs/accounts.md, Limits): what one address, one account, and one
// account from one address may try per window, counted before any password is hashed.
//
//  - wrong passwords per (account, address): `max_failures`, then that pair waits;
//  - failed sign-ins per address, whatever accounts or unknown names it tries:
//    `max_address_failures`;
//  - wrong passwords per account from all addresses: past `account_failures`, each further try
//    waits a delay that doubles from 1 s up to `account_delay_max_seconds`. It slows an attacker
//    with many addresses but never locks the owner out for long;
//  - password checks of any outcome (sign-in, change, deletion) per address and per account:
//    `max_password_checks`, since each costs a hash;
//  - registrations per address (`max_registrations`), names found taken per address (a
//    Register of a taken name, a guest's Hello with an account's name: `max_name_probes`), and
//    new guest identities per address (`max_new_guests`).
//
// Addresses count by limit_key_of_address (an IPv6 address by its /64). Thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "accounts/sign_in_limiter.hpp"
#include "result.pb.h"

namespace duelhall::accounts {

struct AccountsConfig {
  uint32_t session_days = 30;
  uint32_t max_failures = 5;  // wrong passwords per window, per (account, address)
  uint32_t failure_window_seconds = 15 * 60;
  uint32_t max_address_failures = 20;  // failed sign-ins per address per window
  uint32_t account_failures = 20;      // per account per window before the growing delay
  uint32_t account_delay_max_seconds = 60;
  uint32_t max_registrations = 20;    // per address per window
  uint32_t max_password_checks = 60;  // hashes per address, and per account, per window
  uint32_t max_name_probes = 20;      // names found taken, per address per window
  uint32_t max_new_guests = 20;       // new guest identities per address per window
  // A guest identity that never sat in a match nor was named by moderation ends after this.
  uint32_t guest_days = 30;
  // A rating is provisional (and off the leaderboard) while its deviation is above this.
  double provisional_deviation = 110;
  // Glickman's rating period: RD grows by one period's volatility per idle period.
  uint32_t rating_period_hours = 24;
  double tau = 0.5;
};

struct Answer {
  ResultCode code = OK;
  std::string reason;
  uint32_t retry_after_ms = 0;  // TOO_MANY_ATTEMPTS: how long to wait
  uint32_t attempts_left = 0;   // WRONG_PASSWORD: tries left before TOO_MANY_ATTEMPTS
  static Answer fail(ResultCode code, std::string reason) { return {code, std::move(reason)}; }
  static Answer wait(int64_t wait_ms);  // TOO_MANY_ATTEMPTS with the wait
};

class AccountLimits {
 public:
  explicit AccountLimits(const AccountsConfig& config);

  // A password about to be checked for the account `name_key` from `address`, counted already.
  struct Check {
    std::string pair;
    std::string address;
    std::string account;
    int64_t at = 0;
  };
  // Counts a password check before its hash; the answer when one of the limits refuses it.
  std::variant<Check, Answer> begin_check(const std::string& name_key, const std::string& address,
                                          int64_t now);
  // The password was right: the attempt was no failure (and the pair starts afresh).
  void check_passed(const Check& check);
  // The password was wrong: the attempt stays counted; the WRONG_PASSWORD answer says how many
  // tries the client has left before it must wait.
  Answer check_failed(const Check& check, int64_t now);

  // A failed sign-in that checked no password (an unknown name): counted against the address.
  std::optional<Answer> address_refused(const std::string& address, int64_t now);
  void unknown_name(const std::string& address, int64_t now);
  // Counts a hash against `key` ("address:..." or "account:<id>"), whatever its outcome.
  std::optional<Answer> count_hash(const std::string& key, int64_t now);
  std::optional<Answer> count_registration(const std::string& address, int64_t now);
  // Names found taken: refused while the address has probed too many; name_taken counts one.
  std::optional<Answer> probes_refused(const std::string& address, int64_t now);
  void name_taken(const std::string& address, int64_t now);
  // Whether the address may create one more guest identity now (counted when it may).
  bool new_guest(const std::string& address, int64_t now);

 private:
  SignInLimiter pair_failures_;
  SignInLimiter address_failures_;
  SignInLimiter account_failures_;
  SignInLimiter password_checks_;
  SignInLimiter registrations_;
  SignInLimiter name_probes_;
  SignInLimiter new_guests_;
};

}  // namespace duelhall::accounts
