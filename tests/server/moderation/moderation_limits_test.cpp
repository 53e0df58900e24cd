// The limits of moderators' powers in the moderation service (docs/moderation.md): who may lift
// a ban, how wide an address ban may be, mutes that follow a player through sign-out, and the
// hold a kick leaves (issue 29, items 2, 6, 9 and 10).
#include <catch2/catch.hpp>

#include "accounts/address_prefix.hpp"
#include "moderation/moderation_service.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"

using namespace duelhall;
using accounts::ModerationService;
using accounts::Role;
using accounts::UnbanOutcome;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

struct Services {
  explicit Services(int64_t* clock)
      : store(":memory:"),
        accounts(store, {}, [clock] { return *clock; }),
        moderation(accounts, store, [clock] { return *clock; }) {}
  accounts::AccountView add(const std::string& name, Role role) {
    auto reg = accounts.register_account(name, "correct horse", "a", std::nullopt);
    REQUIRE(reg.answer.code == OK);
    if (role != Role::kNone) REQUIRE(moderation.set_role("boss", name, role).code == OK);
    return reg.account;
  }
  storage::SqliteAccountStore store;
  accounts::AccountService accounts;
  ModerationService moderation;
};

}  // namespace

TEST_CASE("moderation: item 10: only the ban's author's role or a higher one lifts a ban") {
  int64_t now = kStart;
  Services s(&now);
  s.add("boss", Role::kAdmin);
  s.add("mod", Role::kModerator);
  const auto victim = s.add("victim", Role::kNone);
  const auto by_admin = s.moderation.ban_address("boss", "198.51.100.0/24", 0, "admin's");
  const auto by_mod = s.moderation.ban_account("mod", victim, 0, "moderator's");
  CHECK(s.moderation.unban("mod", Role::kModerator, by_admin.id) == UnbanOutcome::kProtected);
  CHECK(s.moderation.address_ban("198.51.100.9"));  // still in force
  CHECK(s.moderation.unban("other mod", Role::kModerator, by_mod.id) == UnbanOutcome::kLifted);
  CHECK(s.moderation.unban("boss", Role::kAdmin, by_admin.id) == UnbanOutcome::kLifted);
  CHECK(s.moderation.unban("boss", Role::kAdmin, by_admin.id) == UnbanOutcome::kNoSuchBan);
}

TEST_CASE(
    "moderation: item 2: an address ban is at least a /16 (IPv4) or /32 (IPv6), wider for admins "
    "only") {
  CHECK(accounts::min_ban_prefix(Role::kModerator, true) == 16);
  CHECK(accounts::min_ban_prefix(Role::kModerator, false) == 32);
  CHECK(accounts::min_ban_prefix(Role::kAdmin, true) == 8);
  CHECK(accounts::min_ban_prefix(Role::kAdmin, false) == 16);
  const auto wide = accounts::AddressPrefix::parse("128.0.0.0/1");
  REQUIRE(wide);
  CHECK(wide->is_v4());
  CHECK(wide->length() < accounts::min_ban_prefix(Role::kAdmin, true));
  CHECK(accounts::AddressPrefix::parse("::/0")->length() <
        accounts::min_ban_prefix(Role::kAdmin, false));
}

TEST_CASE(
    "moderation: item 2: a ban lifted on the store (duelhall admin unban) reaches a running "
    "service") {
  int64_t now = kStart;
  Services s(&now);
  const auto ban = s.moderation.ban_address("mod", "203.0.113.0/24", 0, "x");
  REQUIRE(s.moderation.address_ban("203.0.113.5"));
  REQUIRE(s.store.lift_ban(ban.id, now));  // as another process does
  now += ModerationService::kReloadMs;
  CHECK_FALSE(s.moderation.address_ban("203.0.113.5"));
  CHECK(s.moderation.bans_on("203.0.113.77/24").empty());
}

TEST_CASE(
    "moderation: item 6: a mute holds the muted connection's player and address, not only the "
    "account") {
  int64_t now = kStart;
  Services s(&now);
  const auto troll = s.add("troll", Role::kNone);
  s.moderation.mute("mod", {troll.id, 0, {}}, "troll", 0, "spam", {{0, 12, "192.0.2.4"}});
  // Signed out: the same player without the account, and a new guest from the same address.
  CHECK(s.moderation.muted({0, 12, {}}));
  CHECK(s.moderation.muted({0, 99, "192.0.2.4"}));
  CHECK_FALSE(s.moderation.muted({0, 99, "192.0.2.5"}));
  // Unmuting the account lifts all of it.
  REQUIRE(s.moderation.unmute("mod", {troll.id, 0, {}}, "troll"));
  CHECK_FALSE(s.moderation.muted({0, 12, {}}));
  CHECK_FALSE(s.moderation.muted({0, 99, "192.0.2.4"}));
}

TEST_CASE("moderation: item 9: a kick holds the account and the address out for a while") {
  int64_t now = kStart;
  Services s(&now);
  const auto troll = s.add("troll", Role::kNone);
  s.moderation.hold_out(troll.id, "192.0.2.4", 300, "cool off");
  REQUIRE(s.moderation.account_ban(troll.id));
  CHECK(s.moderation.account_ban(troll.id)->kind == "kick");
  CHECK(s.moderation.address_hold("192.0.2.4"));
  CHECK_FALSE(s.moderation.address_ban("192.0.2.4"));  // the handshake is not refused
  now += 301'000;
  CHECK_FALSE(s.moderation.account_ban(troll.id));
  CHECK_FALSE(s.moderation.address_hold("192.0.2.4"));
}
