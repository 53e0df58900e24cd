// The moderation service on a real SQLite store (docs/moderation.md): address prefixes, bans and
// mutes that expire, and that survive reopening the store, and roles.
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>

#include "accounts/address_prefix.hpp"
#include "moderation/moderation_service.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"

using namespace duelhall;
using accounts::AddressPrefix;
using accounts::ModerationService;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

struct Services {
  explicit Services(const std::string& path, int64_t* clock)
      : store(path),
        accounts(store, {}, [clock] { return *clock; }),
        moderation(accounts, store, [clock] { return *clock; }) {}
  storage::SqliteAccountStore store;
  accounts::AccountService accounts;
  ModerationService moderation;
};

}  // namespace

TEST_CASE("moderation: an address ban covers its IPv4 or IPv6 prefix and nothing else") {
  const auto v6 = AddressPrefix::parse("2001:db8:ffff::1/32");
  REQUIRE(v6);
  CHECK(v6->text() == "2001:db8::/32");  // stored with the base masked
  CHECK(v6->contains("2001:db8:1::5"));
  CHECK_FALSE(v6->contains("2001:db9::5"));
  CHECK_FALSE(v6->contains("192.0.2.1"));
  const auto v4 = AddressPrefix::parse("192.0.2.7");
  REQUIRE(v4);
  CHECK(v4->text() == "192.0.2.7/32");
  CHECK(v4->contains("192.0.2.7"));
  CHECK(v4->contains("::ffff:192.0.2.7"));  // as an IPv6 socket reports it
  CHECK_FALSE(v4->contains("192.0.2.8"));
  CHECK_FALSE(v4->contains("not an address"));
  CHECK_FALSE(AddressPrefix::parse("10.0.0.0/33"));
  CHECK_FALSE(AddressPrefix::parse("10.0.0.0/"));
  CHECK_FALSE(AddressPrefix::parse("example.org"));
}

TEST_CASE("moderation: bans and mutes expire, and survive reopening the store") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("duelhall-moderation-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  int64_t now = kStart;
  accounts::AccountView troll;
  {
    Services s(path.string(), &now);
    auto reg = s.accounts.register_account("troll", "correct horse", "a", std::nullopt);
    REQUIRE(reg.answer.code == OK);
    troll = reg.account;
    s.moderation.ban_account("mod", troll, 60, "one minute");
    s.moderation.ban_address("mod", "10.0.0.0/8", 0, "for good");
    s.moderation.mute("mod", {troll.id, 0, {}}, "troll", 120, "two minutes");
    s.moderation.mute("mod", {0, 42, {}}, "a guest", 0, "not stored");
    CHECK(s.moderation.account_ban(troll.id));
    CHECK(s.moderation.address_ban("10.1.2.3")->reason == "for good");
    CHECK_FALSE(s.moderation.address_ban("11.1.2.3"));
    CHECK(s.moderation.muted({troll.id, 0, {}})->expires_ms == kStart + 120'000);
    CHECK(s.moderation.muted({0, 42, {}}));
  }
  Services s(path.string(), &now);
  CHECK(s.moderation.account_ban(troll.id)->reason == "one minute");
  CHECK(s.moderation.address_ban("10.200.0.1"));
  CHECK(s.moderation.muted({troll.id, 0, {}}));
  CHECK_FALSE(s.moderation.muted({0, 42, {}}));  // a guest's mute lasts the server's lifetime
  now += 61'000;
  CHECK_FALSE(s.moderation.account_ban(troll.id));  // expired
  CHECK(s.moderation.muted({troll.id, 0, {}}));
  now += 60'000;
  CHECK_FALSE(s.moderation.muted({troll.id, 0, {}}));
  CHECK(s.moderation.bans().size() == 1);  // the address ban, for good
  CHECK(s.moderation.unban("mod", accounts::Role::kModerator, s.moderation.bans().front().id) ==
        accounts::UnbanOutcome::kLifted);
  CHECK_FALSE(s.moderation.address_ban("10.200.0.1"));
  // Every action is in the audit log, newest first.
  const auto log = s.store.audit(std::nullopt, 10);
  REQUIRE(log.size() == 5);
  CHECK(log.front().action == "unban");
  CHECK(log.front().target == "10.0.0.0/8");
  CHECK(log.back().action == "ban");
  std::filesystem::remove(path);
}

TEST_CASE("moderation: roles are stored on the accounts and only known roles are taken") {
  int64_t now = kStart;
  Services s(":memory:", &now);
  auto reg = s.accounts.register_account("helper", "correct horse", "a", std::nullopt);
  REQUIRE(reg.answer.code == OK);
  CHECK(s.moderation.role(reg.account.id) == accounts::Role::kNone);
  CHECK(s.moderation.set_role("boss", "helper", accounts::Role::kModerator).code == OK);
  CHECK(s.moderation.role(reg.account.id) == accounts::Role::kModerator);
  CHECK(s.store.staff().size() == 1);
  CHECK(s.moderation.set_role("boss", "nobody", accounts::Role::kModerator).code == UNKNOWN_TARGET);
  CHECK_FALSE(accounts::parse_role("king"));
  CHECK(s.moderation.set_role("boss", "helper", accounts::Role::kNone).code == OK);
  CHECK(s.store.staff().empty());
}

TEST_CASE(
    "moderation: reload takes in the bans and mutes another service stored on the same store "
    "(another node of a cluster), and keeps this one's guest mutes") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("duelhall-moderation-shared-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  int64_t now = kStart;
  {
    Services a(path.string(), &now);
    Services b(path.string(), &now);
    auto reg = a.accounts.register_account("troll", "correct horse", "a", std::nullopt);
    REQUIRE(reg.answer.code == OK);
    const accounts::AccountView troll = reg.account;
    b.moderation.mute("mod", {0, 7, {}}, "a guest of b", 0, "b's own");

    const auto ban = a.moderation.ban_account("mod", troll, 0, "cheating");
    a.moderation.mute("mod", {troll.id, 0, {}}, "troll", 0, "spam");
    CHECK_FALSE(b.moderation.account_ban(troll.id));  // its copy is from its start
    b.moderation.reload();
    REQUIRE(b.moderation.account_ban(troll.id));
    CHECK(b.moderation.account_ban(troll.id)->reason == "cheating");
    REQUIRE(b.moderation.muted({troll.id, 0, {}}));
    CHECK(b.moderation.muted({0, 7, {}}));  // not stored, not lost

    REQUIRE(a.moderation.unban("mod", accounts::Role::kModerator, ban.id) ==
            accounts::UnbanOutcome::kLifted);
    REQUIRE(a.moderation.unmute("mod", {troll.id, 0, {}}, "troll"));
    CHECK(b.moderation.account_ban(troll.id));
    b.moderation.reload();
    CHECK_FALSE(b.moderation.account_ban(troll.id));
    CHECK_FALSE(b.moderation.muted({troll.id, 0, {}}));
  }
  std::filesystem::remove(path);
}
