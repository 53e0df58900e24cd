// Moderation against the real binary (docs/moderation.md): roles from the command line and over
// the protocol, typed refusals for non-moderators, mutes, kicks, account bans at sign-in and
// Hello, expired bans, aborted matches, announcements, reports and the audit log, and ignores.
// Address bans at the handshake are in moderation_ban_test.cpp.
#include <chrono>
#include <thread>

#include "moderation_helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

TEST_CASE("moderation: a moderator's command from anyone else is refused with NOT_MODERATOR") {
  ServerProcess server;
  auto guest = connect_as(server.port(), "someone");
  auto player = account_connection(server.port(), "plain");
  const ClientMessage mute = mute_message(account_target("plain"), 60, "spam");
  CHECK(guest->request(mute).result() == NOT_MODERATOR);
  CHECK(player->request(mute).result() == NOT_MODERATOR);
  ClientMessage list;
  list.mutable_list_connections();
  CHECK(player->request(list).result() == NOT_MODERATOR);
  ClientMessage announce;
  announce.mutable_announce()->set_text("hello all");
  CHECK(player->request(announce).result() == NOT_MODERATOR);

  // A moderator may moderate but not give roles, nor act on another moderator.
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto other = account_connection(server.port(), "othermod");
  grant_on_command_line(server, "othermod", "moderator");
  ClientMessage role;
  role.mutable_set_role()->set_account("plain");
  role.mutable_set_role()->set_role("moderator");
  CHECK(mod->request(role).result() == NOT_ADMIN);
  CHECK(mod->request(mute_message(account_target("othermod"), 60, "no")).result() ==
        PROTECTED_TARGET);
  CHECK(mod->request(mute_message(account_target("nobody"), 60, "no")).result() == UNKNOWN_TARGET);
  CHECK(mod->request(mute_message(ModerationTarget(), 60, "no")).result() == BAD_TARGET);
  CHECK(mod->request(list).result() == OK);
  CHECK(server.alive());
}

TEST_CASE("moderation: the first admin is made on the command line and grants moderators") {
  ServerProcess server;
  auto boss = account_connection(server.port(), "boss");
  std::string helper_session;
  auto helper = account_connection(server.port(), "helper", &helper_session);
  // An unknown account or role is refused by the command, with the reason.
  const ExitResult unknown =
      run_to_exit({"admin", "grant", "nobody", "--data", server.data_dir().string()});
  CHECK(unknown.status == 1);
  CHECK(unknown.output.find("no account named nobody") != std::string::npos);
  CHECK(run_to_exit(
            {"admin", "grant", "boss", "--role", "king", "--data", server.data_dir().string()})
            .status == 2);
  ClientMessage list;
  list.mutable_list_bans();
  CHECK(boss->request(list).result() == NOT_MODERATOR);
  grant_on_command_line(server, "boss");
  CHECK(boss->request(list).result() == OK);

  ClientMessage role;
  role.mutable_set_role()->set_account("helper");
  role.mutable_set_role()->set_role("moderator");
  CHECK(helper->request(role).result() == NOT_MODERATOR);  // SetRole: not even a moderator
  REQUIRE(boss->request(role).result() == OK);
  CHECK(helper->request(list).result() == OK);  // a moderator now
  CHECK(helper->request(mute_message(account_target("boss"), 60, "x")).result() ==
        PROTECTED_TARGET);
  // A new connection of the account is told its role in the Welcome.
  auto again = std::make_unique<WsClient>();
  again->connect("127.0.0.1", server.port());
  const auto welcome = again->request(hello_with_session(helper_session));
  REQUIRE(welcome.result() == OK);
  CHECK(welcome.welcome().account().role() == "moderator");
  // Revoked over the protocol: the next command is refused.
  role.mutable_set_role()->set_role("");
  REQUIRE(boss->request(role).result() == OK);
  CHECK(helper->request(list).result() == NOT_MODERATOR);
  // Admins are made only on the command line.
  role.mutable_set_role()->set_role("admin");
  CHECK(boss->request(role).result() == BAD_TARGET);
  // And revoked there.
  const ExitResult revoked =
      run_to_exit({"admin", "revoke", "boss", "--data", server.data_dir().string()});
  CHECK(revoked.status == 0);
  CHECK(boss->request(list).result() == NOT_MODERATOR);
}

TEST_CASE("moderation: a muted player's chat is refused with MUTED and the expiry") {
  ServerProcess server;
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto troll = account_connection(server.port(), "troll");
  REQUIRE(troll->request(subscribe_lobby()).result() == OK);
  REQUIRE(troll->request(chat_message(0, "before")).result() == OK);
  REQUIRE(mod->request(mute_message(account_target("troll"), 600, "insults")).result() == OK);
  // The muted player is told (a Sanction push) ...
  REQUIRE(troll->wait_until([&] {
    for (const auto& m : troll->pushed()) {
      if (m.has_sanction() && m.sanction().kind() == "mute") return true;
    }
    return false;
  }));
  // ... and each chat line is refused with the reason and the expiry.
  const auto refused = troll->request(chat_message(0, "after"));
  CHECK(refused.result() == MUTED);
  CHECK(refused.reason().find("muted until") != std::string::npos);
  CHECK(refused.reason().find("insults") != std::string::npos);
  CHECK(refused.sanction().expires_ms() > 0);
  // A guest without an account is muted by its player id.
  auto guest = connect_as(server.port(), "guesty");
  ClientMessage list;
  list.mutable_list_connections();
  const auto connections = mod->request(list);
  uint64_t guest_id = 0;
  for (const auto& c : connections.connections().connections()) {
    if (c.name() == "guesty") guest_id = c.player_id();
    if (c.account() == "troll") CHECK(c.muted());
  }
  REQUIRE(guest_id != 0);
  ModerationTarget by_player;
  by_player.set_player_id(guest_id);
  REQUIRE(mod->request(mute_message(by_player, 0, "for good")).result() == OK);
  const auto guest_refused = guest->request(chat_message(0, "hi"));
  CHECK(guest_refused.result() == MUTED);
  CHECK(guest_refused.reason().find("for good") != std::string::npos);
  // Unmuted, the troll may chat again.
  ClientMessage unmute;
  *unmute.mutable_unmute()->mutable_target() = account_target("troll");
  REQUIRE(mod->request(unmute).result() == OK);
  CHECK(troll->request(chat_message(0, "sorry")).result() == OK);
}

TEST_CASE("moderation: a kick closes the player's connection with the reason") {
  ServerProcess server;
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto troll = account_connection(server.port(), "troll");
  ClientMessage kick;
  *kick.mutable_kick()->mutable_target() = account_target("troll");
  kick.mutable_kick()->set_reason("cool off");
  REQUIRE(mod->request(kick).result() == OK);
  REQUIRE(closed_by_server(*troll));
  CHECK(troll->close_reason() == "KICKED: cool off");
  // Nobody left to kick, once the close has run its course.
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = mod->request(kick).result() == UNKNOWN_TARGET;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(gone);
}

TEST_CASE("moderation: a banned account is refused at sign-in and Hello, and is disconnected") {
  ServerProcess server;
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  std::string session;
  auto troll = account_connection(server.port(), "troll", &session);
  const auto banned = mod->request(ban_message(account_target("troll"), 0, "cheating"));
  REQUIRE(banned.result() == OK);
  REQUIRE(banned.bans().bans_size() == 1);
  CHECK(banned.bans().bans(0).account() == "troll");
  REQUIRE(closed_by_server(*troll));
  CHECK(troll->close_reason().rfind("BANNED: banned for good: cheating", 0) == 0);

  auto back = std::make_unique<WsClient>();
  back->connect("127.0.0.1", server.port());
  const auto hello = back->request(hello_with_session(session));
  CHECK(hello.result() == BANNED);
  CHECK(hello.reason() == "banned for good: cheating");
  CHECK(hello.sanction().kind() == "ban");
  auto guest = connect_as(server.port(), "someone");
  const auto sign_in = guest->request(sign_in_message("troll", "correct horse"));
  CHECK(sign_in.result() == BANNED);
  CHECK_FALSE(sign_in.has_signed_in());  // no session for the banned
  // The connection stays a guest: still no moderator's rights, and its chat works.
  CHECK(guest->request(chat_message(0, "hi")).result() == OK);

  // Unbanned, the account comes back.
  ClientMessage unban;
  unban.mutable_unban()->set_ban_id(banned.bans().bans(0).id());
  REQUIRE(mod->request(unban).result() == OK);
  CHECK(mod->request(unban).result() == UNKNOWN_TARGET);
  auto returned = connect_as(server.port(), "someone else");
  CHECK(returned->request(sign_in_message("troll", "correct horse")).result() == OK);
  // The bans counter of /metrics counts it.
  CHECK(http_get(server.port(), "/metrics").body.find("duelhall_bans_total 1") !=
        std::string::npos);
}

TEST_CASE("moderation: a ban for a time lets the player in once it has expired") {
  ServerProcess server;
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  std::string session;
  auto troll = account_connection(server.port(), "troll", &session);
  REQUIRE(mod->request(ban_message(account_target("troll"), 1, "one second")).result() == OK);
  auto early = std::make_unique<WsClient>();
  early->connect("127.0.0.1", server.port());
  const auto refused = early->request(hello_with_session(session));
  CHECK(refused.result() == BANNED);
  CHECK(refused.reason().find("banned until") != std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(1'200));
  auto later = std::make_unique<WsClient>();
  later->connect("127.0.0.1", server.port());
  CHECK(later->request(hello_with_session(session)).result() == OK);
}
