#include <catch2/catch.hpp>
#include <memory>
#include <utility>

#include "accounts/account_service.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"

using namespace duelhall;
using accounts::AccountsConfig;
using accounts::AccountService;

namespace {

constexpr int64_t kMinute = 60'000;

struct Fixture {
  int64_t now = 1'700'000'000'000;
  storage::SqliteAccountStore store{":memory:"};
  AccountService service{store, AccountsConfig{}, [this] { return now; }};
};

}  // namespace

TEST_CASE("a registered account signs in, its session finds it, and signing out revokes it") {
  Fixture f;
  auto reg = f.service.register_account("Alice", "correct horse", "10.0.0.1", std::nullopt);
  REQUIRE(reg.answer.code == OK);
  CHECK(reg.session_token.size() == 64);
  CHECK(f.service.from_session(reg.session_token)->name == "Alice");
  auto in = f.service.sign_in("alice", "correct horse", "10.0.0.2");  // any case finds it
  REQUIRE(in.answer.code == OK);
  CHECK(in.account.id == reg.account.id);
  CHECK(in.session_token != reg.session_token);
  f.service.sign_out(in.session_hash);
  CHECK_FALSE(f.service.from_session(in.session_token));
  CHECK(f.service.from_session(reg.session_token));  // other sessions stay
}

TEST_CASE("the password is stored as an Argon2id hash, never as given") {
  Fixture f;
  REQUIRE(f.service.register_account("bob", "bob's secret 9", "a", std::nullopt).answer.code == OK);
  auto stored = f.store.find_by_key("bob");
  REQUIRE(stored);
  CHECK(stored->password_hash.starts_with("$argon2id$"));
  CHECK(stored->password_hash.find("bob's secret 9") == std::string::npos);
}

TEST_CASE("names: length, characters and look-alikes by case are refused, nothing stored") {
  Fixture f;
  REQUIRE(f.service.register_account("Carol", "long enough", "a", std::nullopt).answer.code == OK);
  CHECK(f.service.register_account("cAROL", "long enough", "a", std::nullopt).answer.code ==
        NAME_TAKEN);
  CHECK(f.service.register_account("ab", "long enough", "a", std::nullopt).answer.code ==
        BAD_ACCOUNT_NAME);
  CHECK(f.service.register_account("a name", "long enough", "a", std::nullopt).answer.code ==
        BAD_ACCOUNT_NAME);
  CHECK(f.service.register_account("-dash", "long enough", "a", std::nullopt).answer.code ==
        BAD_ACCOUNT_NAME);
  CHECK(f.service.register_account(std::string(21, 'x'), "long enough", "a", std::nullopt)
            .answer.code == BAD_ACCOUNT_NAME);
  CHECK(f.service.register_account(std::string(4000, 'x'), "long enough", "a", std::nullopt)
            .answer.code == FIELD_TOO_LONG);
  CHECK(f.service.register_account("dave", "short", "a", std::nullopt).answer.code ==
        WEAK_PASSWORD);
  // Seven characters of two bytes each: fourteen bytes, still too short.
  CHECK(f.service.register_account("dave", "ééééééé", "a", std::nullopt).answer.code ==
        WEAK_PASSWORD);
  CHECK(f.service.register_account("dave", std::string(5000, 'p'), "a", std::nullopt).answer.code ==
        FIELD_TOO_LONG);
  CHECK_FALSE(f.store.find_by_key("dave"));
  CHECK_FALSE(f.store.find_by_key("ab"));
}

TEST_CASE("a wrong password and an unknown account are told apart, and open no session") {
  Fixture f;
  REQUIRE(f.service.register_account("erin", "right password", "a", std::nullopt).answer.code ==
          OK);
  auto wrong = f.service.sign_in("erin", "wrong password", "a");
  CHECK(wrong.answer.code == WRONG_PASSWORD);
  CHECK(wrong.session_token.empty());
  CHECK(f.service.sign_in("nobody", "right password", "a").answer.code == UNKNOWN_ACCOUNT);
}

TEST_CASE("failed sign-ins are limited per account from one address, with the wait") {
  Fixture f;
  REQUIRE(f.service.register_account("frank", "right password", "a", std::nullopt).answer.code ==
          OK);
  for (int i = 0; i < 5; ++i) {
    CHECK(f.service.sign_in("frank", "wrong", "10.0.0.1").answer.code == WRONG_PASSWORD);
  }
  auto limited = f.service.sign_in("frank", "right password", "10.0.0.1");
  CHECK(limited.answer.code == TOO_MANY_ATTEMPTS);
  CHECK(limited.answer.reason.find("900 seconds") != std::string::npos);
  CHECK(limited.answer.retry_after_ms == 900'000);
  f.now += 15 * kMinute;
  CHECK(f.service.sign_in("frank", "right password", "10.0.0.1").answer.code == OK);
}

TEST_CASE("failed sign-ins are limited per address, whichever accounts they try") {
  Fixture f;
  REQUIRE(f.service.register_account("grace", "right password", "b", std::nullopt).answer.code ==
          OK);
  for (int i = 0; i < 20; ++i) {
    CHECK(f.service.sign_in("nobody" + std::to_string(i), "x", "6.6.6.6").answer.code ==
          UNKNOWN_ACCOUNT);
  }
  CHECK(f.service.sign_in("grace", "right password", "6.6.6.6").answer.code == TOO_MANY_ATTEMPTS);
  CHECK(f.service.sign_in("grace", "right password", "7.7.7.7").answer.code == OK);
}

TEST_CASE("even successful sign-ins are limited per address, since each costs a hash") {
  Fixture f;
  REQUIRE(f.service.register_account("otto", "right password", "a", std::nullopt).answer.code ==
          OK);
  for (int i = 0; i < 60; ++i) {
    REQUIRE(f.service.sign_in("otto", "right password", "9.9.9.9").answer.code == OK);
  }
  CHECK(f.service.sign_in("otto", "right password", "9.9.9.9").answer.code == TOO_MANY_ATTEMPTS);
  CHECK(f.service.sign_in("otto", "right password", "9.9.9.8").answer.code == OK);
}

TEST_CASE("the store keeps a session's hash only: the token itself finds nothing there") {
  Fixture f;
  auto reg = f.service.register_account("pia", "right password", "a", std::nullopt);
  REQUIRE(reg.answer.code == OK);
  CHECK(f.store.session_account(accounts::session_hash(reg.session_token), f.now) ==
        reg.account.id);
  CHECK_FALSE(f.store.session_account(reg.session_token, f.now));
}

TEST_CASE("a session expires after its days") {
  Fixture f;
  auto reg = f.service.register_account("heidi", "right password", "a", std::nullopt);
  REQUIRE(reg.answer.code == OK);
  f.now += 29LL * 24 * 60 * kMinute;
  CHECK(f.service.from_session(reg.session_token));
  f.now += 2LL * 24 * 60 * kMinute;
  CHECK_FALSE(f.service.from_session(reg.session_token));
}

TEST_CASE("changing the password revokes every other session and the old password") {
  Fixture f;
  auto first = f.service.register_account("ivan", "old password", "a", std::nullopt);
  auto second = f.service.sign_in("ivan", "old password", "a");
  REQUIRE(second.answer.code == OK);
  const std::string at = "a";
  CHECK(
      f.service.change_password(first.account.id, "not it", "new password", first.session_hash, at)
          .code == WRONG_PASSWORD);
  CHECK(f.service.change_password(first.account.id, "old password", "short", first.session_hash, at)
            .code == WEAK_PASSWORD);
  REQUIRE(
      f.service
          .change_password(first.account.id, "old password", "new password", first.session_hash, at)
          .code == OK);
  CHECK(f.service.from_session(first.session_token));
  CHECK_FALSE(f.service.from_session(second.session_token));
  CHECK(f.service.sign_in("ivan", "old password", "a").answer.code == WRONG_PASSWORD);
  CHECK(f.service.sign_in("ivan", "new password", "a").answer.code == OK);
}

TEST_CASE("a deleted account signs in no more and its sessions end") {
  Fixture f;
  auto reg = f.service.register_account("judy", "right password", "a", std::nullopt);
  CHECK(f.service.delete_account(reg.account.id, "wrong", "a").code == WRONG_PASSWORD);
  REQUIRE(f.service.delete_account(reg.account.id, "right password", "a").code == OK);
  CHECK_FALSE(f.service.from_session(reg.session_token));
  CHECK(f.service.sign_in("judy", "right password", "a").answer.code == UNKNOWN_ACCOUNT);
  CHECK_FALSE(f.service.find("judy"));
}

TEST_CASE("a guest keeps its identity, and registering keeps its account and history") {
  Fixture f;
  const std::string token(64, 'a');
  auto guest = f.service.guest(token, "a");
  REQUIRE(guest);
  CHECK(guest->guest);
  CHECK(f.service.guest(token, "a")->id == guest->id);
  CHECK_FALSE(f.service.guest("not hex", "a"));
  f.store.record_seats(7, {{0, guest->id, {}, {}, {}}}, false);
  auto reg = f.service.register_account("kim", "right password", "a", guest->id);
  REQUIRE(reg.answer.code == OK);
  CHECK(reg.account.id == guest->id);
  CHECK(f.store.match_seats(7, nullptr).at(0).account == guest->id);
  // The guest became the account: the same token now starts a new guest, never the account.
  CHECK(f.service.guest(token, "a")->id != guest->id);
}

TEST_CASE("a rated match moves both ratings once, and RD grows over idle periods") {
  Fixture f;
  auto a = f.service.register_account("lena", "right password", "a", std::nullopt).account;
  auto b = f.service.register_account("mike", "right password", "a", std::nullopt).account;
  f.store.record_seats(1, {{0, a.id, {}, {}, {}}, {1, b.id, {}, {}, {}}}, true);
  auto changes = f.service.rate_match(1, "jedi_duel", 0b01);
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].after.rating > 1500);
  CHECK(changes[1].after.rating < 1500);
  CHECK(changes[0].provisional);
  CHECK(f.service.rate_match(1, "jedi_duel", 0b01).empty());  // applied once only
  CHECK(f.store.rating(a.id, "jedi_duel")->games == 1);
  CHECK_FALSE(f.store.rating(a.id, "force_battles"));
  // Not rated, or one account twice: nothing.
  f.store.record_seats(2, {{0, a.id, {}, {}, {}}, {1, b.id, {}, {}, {}}}, false);
  CHECK(f.service.rate_match(2, "jedi_duel", 0b01).empty());
  // Ten idle days later the next match starts from a wider deviation.
  const double deviation = f.store.rating(a.id, "jedi_duel")->deviation;
  f.now += 10LL * 24 * 60 * kMinute;
  f.store.record_seats(3, {{0, a.id, {}, {}, {}}, {1, b.id, {}, {}, {}}}, true);
  auto later = f.service.rate_match(3, "jedi_duel", 0b10);
  REQUIRE(later.size() == 2);
  CHECK(later[0].before.deviation > deviation);
}

TEST_CASE("a seat's score from the winners: a win, a loss, and a draw when both or neither won") {
  using accounts::score_against;
  // Each mask against each order of the two seats. (The ThreadSanitizer build, GCC 12 at -O1,
  // once scored 0b01 as a draw inside rate_match: the test above fails there without the fix.)
  for (const auto& [seat, opponent] : {std::pair(0, 1), std::pair(1, 0)}) {
    const uint64_t mine = uint64_t{1} << seat;
    const uint64_t theirs = uint64_t{1} << opponent;
    CHECK(score_against(mine, seat, opponent) == 1.0);
    CHECK(score_against(theirs, seat, opponent) == 0.0);
    CHECK(score_against(0, seat, opponent) == 0.5);
    CHECK(score_against(mine | theirs, seat, opponent) == 0.5);
  }
  CHECK(score_against(0b100, 2, 5) == 1.0);  // seats past the first two
  CHECK(score_against(0b100, 5, 2) == 0.0);
}
