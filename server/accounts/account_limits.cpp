#include "accounts/account_limits.hpp"

#include <algorithm>
#include <limits>

namespace duelhall::accounts {
namespace {

constexpr size_t kMaxKeys = 100'000;

int64_t window_ms(const AccountsConfig& config) {
  return int64_t{config.failure_window_seconds} * 1000;
}

}  // namespace

Answer Answer::wait(int64_t wait_ms) {
  const int64_t seconds = (wait_ms + 999) / 1000;
  Answer out = fail(TOO_MANY_ATTEMPTS,
                    "too many attempts: try again in " + std::to_string(seconds) + " seconds");
  out.retry_after_ms =
      static_cast<uint32_t>(std::clamp<int64_t>(wait_ms, 1, std::numeric_limits<uint32_t>::max()));
  return out;
}

AccountLimits::AccountLimits(const AccountsConfig& config)
    : pair_failures_(config.max_failures, window_ms(config), kMaxKeys),
      address_failures_(config.max_address_failures, window_ms(config), kMaxKeys),
      account_failures_(config.account_failures, window_ms(config), kMaxKeys,
                        std::max<int64_t>(1000, int64_t{config.account_delay_max_seconds} * 1000)),
      password_checks_(config.max_password_checks, window_ms(config), kMaxKeys),
      registrations_(config.max_registrations, window_ms(config), kMaxKeys),
      name_probes_(config.max_name_probes, window_ms(config), kMaxKeys),
      new_guests_(config.max_new_guests, window_ms(config), kMaxKeys) {}

std::variant<AccountLimits::Check, Answer> AccountLimits::begin_check(const std::string& name_key,
                                                                      const std::string& address,
                                                                      int64_t now) {
  const std::string where = limit_key_of_address(address);
  Check check{name_key + "@" + where, where, name_key, now};
  if (auto wait = pair_failures_.take(check.pair, now)) return Answer::wait(*wait);
  if (auto wait = address_failures_.take(check.address, now)) {
    pair_failures_.give_back(check.pair, now);
    return Answer::wait(*wait);
  }
  if (auto wait = account_failures_.take(check.account, now)) {
    pair_failures_.give_back(check.pair, now);
    address_failures_.give_back(check.address, now);
    return Answer::wait(*wait);
  }
  return check;
}

void AccountLimits::check_passed(const Check& check) {
  pair_failures_.succeeded(check.pair);
  address_failures_.give_back(check.address, check.at);
  account_failures_.give_back(check.account, check.at);
}

Answer AccountLimits::check_failed(const Check& check, int64_t now) {
  Answer out = Answer::fail(WRONG_PASSWORD, "wrong password");
  out.attempts_left =
      std::min(pair_failures_.left(check.pair, now), address_failures_.left(check.address, now));
  return out;
}

std::optional<Answer> AccountLimits::address_refused(const std::string& address, int64_t now) {
  if (auto wait = address_failures_.wait_ms(limit_key_of_address(address), now)) {
    return Answer::wait(*wait);
  }
  return std::nullopt;
}

void AccountLimits::unknown_name(const std::string& address, int64_t now) {
  address_failures_.failed(limit_key_of_address(address), now);
}

std::optional<Answer> AccountLimits::count_hash(const std::string& key, int64_t now) {
  if (auto wait = password_checks_.take(key, now)) return Answer::wait(*wait);
  return std::nullopt;
}

std::optional<Answer> AccountLimits::count_registration(const std::string& address, int64_t now) {
  if (auto wait = registrations_.take(limit_key_of_address(address), now)) {
    return Answer::wait(*wait);
  }
  return std::nullopt;
}

std::optional<Answer> AccountLimits::probes_refused(const std::string& address, int64_t now) {
  if (auto wait = name_probes_.wait_ms(limit_key_of_address(address), now)) {
    return Answer::wait(*wait);
  }
  return std::nullopt;
}

void AccountLimits::name_taken(const std::string& address, int64_t now) {
  name_probes_.failed(limit_key_of_address(address), now);
}

bool AccountLimits::new_guest(const std::string& address, int64_t now) {
  return !new_guests_.take(limit_key_of_address(address), now);
}

}  // namespace duelhall::accounts
