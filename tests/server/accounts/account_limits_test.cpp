// Issue 29's account items, each named after the hole it closes: tried on the accounts service
// over a real SQLite store (the dispatcher and the server add nothing to these limits).
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "accounts/account_service.hpp"
#include "accounts/common_passwords.hpp"
#include "accounts/credentials.hpp"
#include "accounts/sign_in_limiter.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"

using namespace duelhall;
using accounts::AccountsConfig;
using accounts::AccountService;

namespace {

constexpr int64_t kMinute = 60'000;

struct Fixture {
  explicit Fixture(AccountsConfig config = {})
      : service(store, config, [this] { return now.load(); }) {}

  std::atomic<int64_t> now{1'700'000'000'000};
  storage::SqliteAccountStore store{":memory:"};
  AccountService service;

  accounts::SessionGrant registered(const std::string& name) {
    auto grant = service.register_account(name, "right password", "192.0.2.200", std::nullopt);
    REQUIRE(grant.answer.code == OK);
    return grant;
  }
};

std::string guest_token(int i) {
  std::string token(64, '0');
  const std::string digits = std::to_string(i);
  token.replace(64 - digits.size(), digits.size(), digits);
  return token;
}

}  // namespace

TEST_CASE("item 1: a ChangePassword whose new password is the old one is refused unhashed") {
  Fixture f;
  auto reg = f.registered("ann");
  const auto same = f.service.change_password(reg.account.id, "right password", "right password",
                                              reg.session_hash, "192.0.2.1");
  CHECK(same.code == WEAK_PASSWORD);
  CHECK(same.reason.find("old one") != std::string::npos);
}

TEST_CASE("item 1: password changes and deletions are counted per account, whatever the outcome") {
  AccountsConfig config;
  config.max_password_checks = 6;  // each right change costs two hashes: keep the test short
  Fixture f(config);
  auto reg = f.registered("ann");
  // Right old passwords from many addresses: each costs a hash, so the account's count stops them.
  ResultCode last = OK;
  int accepted = 0;
  for (int i = 0; i < 10 && last != TOO_MANY_ATTEMPTS; ++i) {
    const std::string next = "new password " + std::to_string(i % 2);
    const std::string old = "new password " + std::to_string((i + 1) % 2);
    last = f.service
               .change_password(reg.account.id, i == 0 ? "right password" : old, next,
                                reg.session_hash, "10.1.0." + std::to_string(i))
               .code;
    if (last == OK) ++accepted;
  }
  CHECK(last == TOO_MANY_ATTEMPTS);
  CHECK(accepted == 6);
  const auto deletion = f.service.delete_account(reg.account.id, "new password 0", "10.2.0.1");
  CHECK(deletion.code == TOO_MANY_ATTEMPTS);
  CHECK(deletion.retry_after_ms > 0);
}

TEST_CASE("item 4: wrong passwords from one address do not lock the owner out of another") {
  Fixture f;
  f.registered("victim");
  for (int i = 0; i < 5; ++i) {
    CHECK(f.service.sign_in("victim", "guess " + std::to_string(i), "203.0.113.66").answer.code ==
          WRONG_PASSWORD);
  }
  CHECK(f.service.sign_in("victim", "guess", "203.0.113.66").answer.code == TOO_MANY_ATTEMPTS);
  CHECK(f.service.sign_in("victim", "right password", "198.51.100.7").answer.code == OK);
}

TEST_CASE(
    "item 4: wrong passwords from many addresses slow the account by a growing delay, "
    "never a long lock") {
  Fixture f;
  f.registered("victim");
  for (int i = 0; i < 20; ++i) {
    CHECK(f.service.sign_in("victim", "guess", "203.0.113." + std::to_string(i)).answer.code ==
          WRONG_PASSWORD);
  }
  // Past 20 the account waits 1 s after a wrong try, then 2 s, 4 s ... up to 60 s.
  auto waiting = f.service.sign_in("victim", "right password", "198.51.100.7");
  CHECK(waiting.answer.code == TOO_MANY_ATTEMPTS);
  CHECK(waiting.answer.retry_after_ms == 1000);
  f.now += 1000;
  CHECK(f.service.sign_in("victim", "guess", "203.0.113.99").answer.code == WRONG_PASSWORD);
  CHECK(f.service.sign_in("victim", "right password", "198.51.100.7").answer.retry_after_ms ==
        2000);
  for (int i = 0; i < 10; ++i) {
    f.now += 61'000;
    CHECK(f.service.sign_in("victim", "guess", "203.0.114." + std::to_string(i)).answer.code ==
          WRONG_PASSWORD);
  }
  const auto capped = f.service.sign_in("victim", "right password", "198.51.100.7");
  CHECK(capped.answer.retry_after_ms == 60'000);
  f.now += 60'000;
  CHECK(f.service.sign_in("victim", "right password", "198.51.100.7").answer.code == OK);
}

TEST_CASE("item 4: a wrong password says how many tries are left, a refusal how long to wait") {
  Fixture f;
  f.registered("erin");
  CHECK(f.service.sign_in("erin", "guess", "192.0.2.9").answer.attempts_left == 4);
  CHECK(f.service.sign_in("erin", "guess", "192.0.2.9").answer.attempts_left == 3);
  f.now += kMinute;
  for (int i = 0; i < 3; ++i) f.service.sign_in("erin", "guess", "192.0.2.9");
  const auto refused = f.service.sign_in("erin", "guess", "192.0.2.9").answer;
  CHECK(refused.code == TOO_MANY_ATTEMPTS);
  CHECK(refused.retry_after_ms == 14 * kMinute);
}

TEST_CASE("item 7: simultaneous wrong passwords hash at most the limit") {
  Fixture f;
  f.registered("target");
  constexpr int kTries = 40;
  std::atomic<int> wrong{0};
  std::atomic<int> refused{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kTries; ++i) {
    threads.emplace_back([&] {
      const auto code = f.service.sign_in("target", "guess", "203.0.113.5").answer.code;
      if (code == WRONG_PASSWORD) ++wrong;  // a password was hashed and compared
      if (code == TOO_MANY_ATTEMPTS) ++refused;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(wrong.load() == 5);
  CHECK(refused.load() == kTries - 5);
}

TEST_CASE("item 12: registering taken names and guests naming accounts are counted per address") {
  Fixture f;
  for (int i = 0; i < 5; ++i) f.registered("member" + std::to_string(i));
  int answered = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string name = "member" + std::to_string(i % 5);
    const auto probe =
        i % 2 == 0
            ? f.service.register_account(name, "some password", "203.0.113.8", std::nullopt).answer
            : f.service.guest_name_refused(name, "203.0.113.8").value();
    if (probe.code == NAME_TAKEN || probe.code == BAD_NAME) ++answered;
  }
  CHECK(answered == 20);
  // Once past the limit, a free name gets the same refusal: nothing tells them apart.
  auto free_name = f.service.guest_name_refused("nobody_here", "203.0.113.8");
  REQUIRE(free_name);
  CHECK(free_name->code == TOO_MANY_ATTEMPTS);
  CHECK_FALSE(f.service.guest_name_refused("member1", "198.51.100.1") == std::nullopt);
  CHECK_FALSE(f.service.guest_name_refused("nobody_here", "198.51.100.1"));
}

TEST_CASE("item 13: the most common passwords and all-space ones are refused") {
  Fixture f;
  for (const char* weak : {"12345678", "password", "Password1", "qwerty123", "iloveyou", "        ",
                           "\t \t \t \t ", "\u00a0\u00a0\u00a0\u00a0\u3000\u3000\u3000\u3000"}) {
    INFO(weak);
    CHECK(f.service.register_account("someone", weak, "192.0.2.1", std::nullopt).answer.code ==
          WEAK_PASSWORD);
  }
  CHECK_FALSE(f.store.find_by_key("someone"));
  CHECK(accounts::is_common_password("  LetMeIn1  "));
  CHECK_FALSE(accounts::is_common_password("correct horse"));
  CHECK(accounts::common_passwords_text().size() > 20'000);  // thousands of entries
  CHECK(f.service.register_account("someone", "a quiet 7 river", "192.0.2.1", std::nullopt)
            .answer.code == OK);
}

TEST_CASE("item 8: new guest identities are limited per address, returning ones are not") {
  Fixture f;
  for (int i = 0; i < 20; ++i) REQUIRE(f.service.guest(guest_token(i), "203.0.113.9"));
  CHECK_FALSE(f.service.guest(guest_token(20), "203.0.113.9"));
  CHECK(f.service.guest(guest_token(3), "203.0.113.9"));  // known already
  CHECK(f.service.guest(guest_token(21), "198.51.100.9"));
  f.now += 15 * kMinute;
  CHECK(f.service.guest(guest_token(22), "203.0.113.9"));
}

TEST_CASE("item 8: unused guests expire after guest_days") {
  Fixture f;
  const auto old_guest = f.service.guest(guest_token(1), "192.0.2.1");
  REQUIRE(old_guest);
  f.now += 29LL * 24 * 60 * kMinute;
  CHECK(f.service.expire_guests() == 0);
  f.now += 2LL * 24 * 60 * kMinute;
  CHECK(f.service.expire_guests() == 1);
  CHECK(f.service.guest(guest_token(1), "192.0.2.1")->id != old_guest->id);
}

TEST_CASE("limiter: a full table evicts its oldest keys instead of wiping every limit") {
  accounts::SignInLimiter limiter(5, 15 * kMinute, 1000);
  const int64_t start = 1'000'000;
  for (int i = 0; i < 900; ++i) limiter.failed("flood:" + std::to_string(i), start + i);
  for (int i = 0; i < 5; ++i) limiter.failed("account:victim", start + 900);
  for (int i = 900; i < 1200; ++i) limiter.failed("flood:" + std::to_string(i), start + 1 + i);
  CHECK(limiter.keys() <= 1000);
  CHECK(limiter.wait_ms("account:victim", start + 1300));  // still limited
  CHECK(limiter.left("flood:0", start + 1300) == 5);       // the oldest went
}

TEST_CASE("limiter: an IPv6 address counts by its /64, a mapped IPv4 address as itself") {
  using accounts::limit_key_of_address;
  CHECK(limit_key_of_address("2001:db8:1:2:aaaa::1") == limit_key_of_address("2001:db8:1:2::9"));
  CHECK(limit_key_of_address("2001:db8:1:2::1") != limit_key_of_address("2001:db8:1:3::1"));
  CHECK(limit_key_of_address("::ffff:192.0.2.7") == "192.0.2.7");
  CHECK(limit_key_of_address("192.0.2.7") == "192.0.2.7");
  Fixture f;
  f.registered("ipv6user");
  for (int i = 0; i < 5; ++i) {
    f.service.sign_in("ipv6user", "guess", "2001:db8:5:6::" + std::to_string(i + 1));
  }
  CHECK(f.service.sign_in("ipv6user", "right password", "2001:db8:5:6::77").answer.code ==
        TOO_MANY_ATTEMPTS);
}
