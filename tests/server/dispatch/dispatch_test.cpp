// Dispatch: sessions and the lobby, driven in-process with recording peers.
#include <catch2/catch.hpp>

#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using duelhall::testing::create_message;

TEST_CASE("every command before hello is refused with HELLO_REQUIRED") {
  InProcessServer server;
  InProcessClient client(server);
  ClientMessage m;
  m.mutable_list_matches();
  CHECK(client.request(m).result() == HELLO_REQUIRED);
  ClientMessage ping;
  ping.mutable_ping()->set_nonce(42);
  auto pong = client.request(ping);
  CHECK(pong.result() == OK);
  CHECK(pong.pong().nonce() == 42);
}

TEST_CASE("a display name is counted in characters, not bytes") {
  InProcessServer server;
  std::string accented;
  for (int i = 0; i < 32; ++i) accented += "\xc3\xa9";  // 32 times U+00E9: 64 bytes
  InProcessClient first(server);
  auto welcome = first.hello(accented);
  REQUIRE(welcome.result() == OK);
  CHECK(welcome.welcome().display_name() == accented);
  InProcessClient second(server);
  CHECK(second.hello("\xf0\x9f\x82\xa1 Ace").result() == OK);  // a 4-byte character
}

TEST_CASE("hello checks the protocol version and the name, and gives a 256-bit token") {
  InProcessServer server;
  InProcessClient client(server);
  ClientMessage old;
  old.mutable_hello()->set_protocol_version(99);
  old.mutable_hello()->set_display_name("Ann");
  CHECK(client.request(old).result() == UNSUPPORTED_VERSION);
  CHECK(client.hello("").result() == BAD_NAME);
  CHECK(client.hello("bell\x07").result() == BAD_NAME);
  CHECK(client.hello(std::string(33, 'a')).result() == BAD_NAME);
  CHECK(client.hello("bad \xff utf-8").result() == BAD_NAME);
  CHECK(client.hello("overlong \xc0\xaf").result() == BAD_NAME);
  CHECK(client.hello("C1 \xc2\x85").result() == BAD_NAME);
  std::string accented;
  for (int i = 0; i < 33; ++i) accented += "\xc3\xa9";  // 33 times U+00E9
  CHECK(client.hello(accented).result() == BAD_NAME);
  CHECK(client.hello(accented).reason().find("32 characters") != std::string::npos);
  auto welcome = client.hello("Ann");
  REQUIRE(welcome.result() == OK);
  CHECK(welcome.welcome().display_name() == "Ann");
  CHECK(welcome.welcome().resume_token().size() == 64);  // 32 bytes as hex
  CHECK(client.hello("Ann").result() == ALREADY_HELLO);
  InProcessClient other(server);
  CHECK(other.hello("Ben").welcome().resume_token() != welcome.welcome().resume_token());
}

TEST_CASE("a wrong resume token is refused with BAD_TOKEN") {
  InProcessServer server;
  InProcessClient client(server);
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_resume_token("00000000000000000000000000000000");
  CHECK(client.request(m).result() == BAD_TOKEN);
}

TEST_CASE("a message without a command gets UNKNOWN_COMMAND") {
  InProcessServer server;
  InProcessClient client(server);
  client.hello("Ann");
  ClientMessage empty;
  CHECK(client.request(empty).result() == UNKNOWN_COMMAND);
}

TEST_CASE("the ruleset list carries each ruleset's parameters for a create form") {
  InProcessServer server;
  InProcessClient client(server);
  client.hello("Ann");
  ClientMessage m;
  m.mutable_list_rulesets();
  auto reply = client.request(m);
  REQUIRE(reply.result() == OK);
  const duelhall::RulesetInfo* found = nullptr;
  for (const auto& r : reply.rulesets().rulesets()) {
    if (r.name() == duelhall::testing::kTestRuleset) found = &r;
  }
  REQUIRE(found != nullptr);
  CHECK(found->min_seats() == 2);
  CHECK(found->max_seats() == 3);
  REQUIRE(found->params_size() == 2);
  CHECK(found->params(0).name() == "hand");
  CHECK(found->params(0).default_int() == 2);
  CHECK(found->params(0).max() == 3);
}

TEST_CASE("create refuses unknown rulesets, bad seat counts and bad parameters") {
  InProcessServer server;
  InProcessClient client(server);
  client.hello("Ann");
  auto m = create_message(2, true, 0);
  m.mutable_create_match()->mutable_settings()->set_ruleset("chess");
  CHECK(client.request(m).result() == UNKNOWN_RULESET);
  CHECK(client.request(create_message(5, true, 0)).result() == BAD_PARAMETERS);
  CHECK(client.request(create_message(2, true, 2)).result() == BAD_PARAMETERS);
  auto bad = create_message(2, true, 0);
  (*bad.mutable_create_match()->mutable_settings()->mutable_params())["hand"] = "9";
  auto reply = client.request(bad);
  CHECK(reply.result() == BAD_PARAMETERS);
  CHECK_FALSE(reply.reason().empty());
  (*bad.mutable_create_match()->mutable_settings()->mutable_params())["hand"] = "1";
  (*bad.mutable_create_match()->mutable_settings()->mutable_params())["colour"] = "red";
  CHECK(client.request(bad).result() == BAD_PARAMETERS);
}

TEST_CASE("the match cap refuses creation with TOO_MANY_MATCHES") {
  server::Config config;
  config.limits.max_matches = 1;
  InProcessServer server(config);
  InProcessClient client(server);
  client.hello("Ann");
  CHECK(client.request(create_message(2, true, 0)).result() == OK);
  CHECK(client.request(create_message(2, true, 0)).result() == TOO_MANY_MATCHES);
}

TEST_CASE("a draining hub refuses new matches with SERVER_DRAINING and keeps those it has") {
  InProcessServer server;
  InProcessClient client(server);
  client.hello("Ann");
  auto created = client.request(create_message(2, true, 0));
  REQUIRE(created.result() == OK);
  server.hub->stop_taking_matches();
  CHECK_FALSE(server.hub->taking_matches());
  auto refused = client.request(create_message(2, true, 0));
  CHECK(refused.result() == SERVER_DRAINING);
  CHECK_FALSE(refused.reason().empty());
  CHECK(server.hub->match_count() == 1);
}

TEST_CASE("lobby subscribers see matches appear, fill, start and go") {
  server::Config config;
  config.finished_linger_seconds = 0;
  InProcessServer server(config);
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage sub;
  sub.mutable_subscribe_lobby()->set_subscribe(true);
  REQUIRE(watcher.request(sub).result() == OK);

  InProcessClient host(server);
  host.hello("Ann");
  auto created = host.request(create_message(2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(watcher.wait_until([&] {
    for (const auto& m : watcher.inbox) {
      if (m.has_lobby_update() && m.lobby_update().match().match_id() == id) return true;
    }
    return false;
  }));
  ClientMessage list;
  list.mutable_list_matches();
  auto listed = watcher.request(list);
  REQUIRE(listed.matches().matches_size() == 1);
  CHECK(listed.matches().matches(0).seats(0).name() == "Ann");
  CHECK(listed.matches().matches(0).seats(1).occupant() == SeatInfo::EMPTY);
  CHECK(listed.matches().matches(0).status() == WAITING);

  InProcessClient guest(server);
  guest.hello("Ben");
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(-1);
  auto joined = guest.request(join);
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().seat() == 1);
  REQUIRE(watcher.wait_until([&] {
    for (const auto& m : watcher.inbox) {
      if (m.has_lobby_update() && m.lobby_update().match().status() == PLAYING) return true;
    }
    return false;
  }));
  InProcessClient late(server);
  late.hello("Cat");
  CHECK(late.request(join).result() == WRONG_MATCH_STATE);
}

TEST_CASE("private matches are unlisted and need the invite code") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto m = create_message(2, true, 0);
  m.mutable_create_match()->mutable_settings()->set_unlisted(true);
  auto created = host.request(m);
  REQUIRE(created.result() == OK);
  const std::string code = created.created().invite_code();
  CHECK(code.size() == 8);
  InProcessClient guest(server);
  guest.hello("Ben");
  ClientMessage list;
  list.mutable_list_matches();
  CHECK(guest.request(list).matches().matches_size() == 0);
  ClientMessage join;
  join.mutable_join_match()->set_match_id(created.created().match().match_id());
  join.mutable_join_match()->set_seat(-1);
  join.mutable_join_match()->set_invite_code("WRONGONE");
  CHECK(guest.request(join).result() == BAD_INVITE);
  join.mutable_join_match()->set_invite_code(code);
  CHECK(guest.request(join).result() == OK);
}

TEST_CASE("commands for a match that does not exist get UNKNOWN_MATCH") {
  InProcessServer server;
  InProcessClient client(server);
  client.hello("Ann");
  ClientMessage m;
  m.mutable_action()->set_match_id(777);
  m.mutable_action()->set_code(1);
  CHECK(client.request(m).result() == UNKNOWN_MATCH);
  ClientMessage s;
  s.mutable_spectate()->set_match_id(777);
  CHECK(client.request(s).result() == UNKNOWN_MATCH);
}

TEST_CASE("lobby chat is length- and rate-limited") {
  server::Config config;
  config.limits.chat_per_minute = 6;  // a burst of one
  InProcessServer server(config);
  InProcessClient client(server);
  client.hello("Ann");
  ClientMessage sub;
  sub.mutable_subscribe_lobby()->set_subscribe(true);
  client.request(sub);
  ClientMessage chat;
  chat.mutable_chat()->set_text(std::string(301, 'x'));
  CHECK(client.request(chat).result() == CHAT_TOO_LONG);
  chat.mutable_chat()->set_text("hello all");
  CHECK(client.request(chat).result() == OK);
  CHECK(client.request(chat).result() == RATE_LIMITED);
  REQUIRE(client.wait_until([&] {
    for (const auto& m : client.inbox) {
      if (m.has_chat() && m.chat().text() == "hello all" && m.chat().from() == "Ann") return true;
    }
    return false;
  }));
}
