// The limits of moderators' powers against the real server (docs/moderation.md, issue 29): an
// address ban cannot cover staff nor a whole range, staff addresses are not listed, only the
// ban's role lifts it, `duelhall admin unban`, mutes that survive SignOut, kicks that stick.
// Clients stand at distinct addresses through X-Forwarded-For, loopback being a trusted proxy.
#include <thread>

#include "moderation_helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// A guest connection that the server sees at `address`.
std::unique_ptr<WsClient> connect_from(uint16_t port, const std::string& address,
                                       const std::string& name) {
  auto c = std::make_unique<WsClient>();
  c->set_handshake_header("X-Forwarded-For", address);
  c->connect("127.0.0.1", port);
  c->record_frames(true);
  REQUIRE(c->hello(name).result() == OK);
  return c;
}

void register_as(WsClient& c, const std::string& name) {
  ClientMessage m;
  m.mutable_register_account()->set_name(name);
  m.mutable_register_account()->set_password("correct horse");
  REQUIRE(c.request(m).result() == OK);
}

ModerationTarget address_target(const std::string& address) {
  ModerationTarget t;
  t.set_address(address);
  return t;
}

ConnectionList connections(WsClient& mod) {
  ClientMessage list;
  list.mutable_list_connections();
  const auto reply = mod.request(list);
  REQUIRE(reply.result() == OK);
  return reply.connections();
}

}  // namespace

TEST_CASE(
    "moderation: item 2: a moderator's address ban covers no staff and no wide range, and staff "
    "addresses stay hidden") {
  ServerProcess server({"--trusted-proxy", "127.0.0.0/8"});
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto boss = connect_from(server.port(), "198.51.100.20", "guest");
  register_as(*boss, "boss");
  grant_on_command_line(server, "boss", "admin");
  auto guest = connect_from(server.port(), "198.51.100.30", "bystander");

  CHECK(mod->request(ban_message(address_target("198.51.100.20"), 0, "x")).result() ==
        PROTECTED_TARGET);
  CHECK(mod->request(ban_message(address_target("198.51.100.0/24"), 0, "x")).result() ==
        PROTECTED_TARGET);
  CHECK(mod->request(ban_message(address_target("128.0.0.0/1"), 0, "x")).result() == BAD_TARGET);
  CHECK(mod->request(ban_message(address_target("::/0"), 0, "x")).result() == BAD_TARGET);
  CHECK(mod->request(ban_message(address_target("10.0.0.0/15"), 0, "x")).result() == BAD_TARGET);
  CHECK(mod->request(ban_message(address_target("10.0.0.0/16"), 60, "x")).result() == OK);
  CHECK(boss->request(ban_message(address_target("11.0.0.0/8"), 60, "x")).result() == OK);
  CHECK(boss->request(ban_message(address_target("12.0.0.0/7"), 60, "x")).result() == BAD_TARGET);

  bool saw_boss = false;
  bool saw_guest = false;
  const auto seen_by_mod = connections(*mod);
  for (const auto& c : seen_by_mod.connections()) {
    if (c.account() == "boss") {
      saw_boss = true;
      CHECK(c.address().empty());
    }
    if (c.name() == "bystander") {
      saw_guest = true;
      CHECK(c.address() == "198.51.100.30");
    }
  }
  CHECK(saw_boss);
  CHECK(saw_guest);
  // The admin sees the moderator's address.
  const auto seen_by_boss = connections(*boss);
  for (const auto& c : seen_by_boss.connections()) {
    if (c.account() == "mod") CHECK(c.address() == "127.0.0.1");
  }
}

TEST_CASE(
    "moderation: item 10: a moderator cannot lift an admin's ban, and duelhall admin unban lifts "
    "it on a running server") {
  ServerProcess server({"--trusted-proxy", "127.0.0.0/8"});
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto boss = connect_from(server.port(), "198.51.100.20", "guest");
  register_as(*boss, "boss");
  grant_on_command_line(server, "boss", "admin");
  const auto banned = boss->request(ban_message(address_target("203.0.113.0/24"), 0, "admin's"));
  REQUIRE(banned.result() == OK);
  ClientMessage unban;
  unban.mutable_unban()->set_ban_id(banned.bans().bans(0).id());
  CHECK(mod->request(unban).result() == PROTECTED_TARGET);

  const ExitResult r =
      run_to_exit({"admin", "unban", "203.0.113.0/24", "--data", server.data_dir().string()});
  INFO(r.output);
  REQUIRE(r.status == 0);
  bool admitted = false;
  for (int i = 0; i < 60 && !admitted; ++i) {
    try {
      connect_from(server.port(), "203.0.113.9", "back");
      admitted = true;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  CHECK(admitted);
  CHECK(run_to_exit({"admin", "unban", "203.0.113.0/24", "--data", server.data_dir().string()})
            .status == 1);  // nothing left to lift
}

TEST_CASE("moderation: item 6: a mute follows the player through SignOut, and its address") {
  ServerProcess server({"--trusted-proxy", "127.0.0.0/8"});
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto troll = connect_from(server.port(), "198.51.100.7", "guest");
  register_as(*troll, "troll");
  REQUIRE(mod->request(mute_message(account_target("troll"), 0, "insults")).result() == OK);
  CHECK(troll->request(chat_message(0, "muted")).result() == MUTED);
  ClientMessage sign_out;
  sign_out.mutable_sign_out();
  REQUIRE(troll->request(sign_out).result() == OK);
  CHECK(troll->request(chat_message(0, "signed out")).result() == MUTED);
  // A new guest from the same address is muted too; one from elsewhere is not.
  auto again = connect_from(server.port(), "198.51.100.7", "fresh");
  CHECK(again->request(chat_message(0, "new name")).result() == MUTED);
  auto other = connect_from(server.port(), "198.51.100.8", "other");
  CHECK(other->request(chat_message(0, "hello")).result() == OK);
}

TEST_CASE(
    "moderation: item 9: a kick voids the resume token and holds the account and address out") {
  ServerProcess server({"--trusted-proxy", "127.0.0.0/8", "--kick-hold", "60"});
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto troll = std::make_unique<WsClient>();
  troll->set_handshake_header("X-Forwarded-For", "198.51.100.9");
  troll->connect("127.0.0.1", server.port());
  const auto welcome = troll->hello("guest");
  REQUIRE(welcome.result() == OK);
  const std::string token = welcome.welcome().resume_token();
  REQUIRE_FALSE(token.empty());
  register_as(*troll, "troll");
  ClientMessage kick;
  *kick.mutable_kick()->mutable_target() = account_target("troll");
  kick.mutable_kick()->set_reason("cool off");
  REQUIRE(mod->request(kick).result() == OK);
  REQUIRE(closed_by_server(*troll));

  WsClient resumed;
  resumed.set_handshake_header("X-Forwarded-For", "198.51.100.99");
  resumed.connect("127.0.0.1", server.port());
  CHECK(resumed.resume(token).result() == BAD_TOKEN);
  WsClient same_address;
  same_address.set_handshake_header("X-Forwarded-For", "198.51.100.9");
  same_address.connect("127.0.0.1", server.port());
  const auto hello = same_address.hello("new name");
  CHECK(hello.result() == BANNED);
  CHECK(hello.sanction().kind() == "kick");
  auto elsewhere = connect_from(server.port(), "198.51.100.10", "someone");
  CHECK(elsewhere->request(sign_in_message("troll", "correct horse")).result() == BANNED);
  auto bystander = connect_from(server.port(), "198.51.100.11", "bystander");
  CHECK(bystander->request(chat_message(0, "hi")).result() == OK);
}
