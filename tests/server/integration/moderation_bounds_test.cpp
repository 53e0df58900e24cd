// What one player can put on the moderators and everyone else (issue 29, "suspected from
// reading"): open reports are bounded per reporter, and announcements are rate-limited like chat.
#include "moderation_helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

TEST_CASE("moderation: one player's open reports are bounded, each one past it refused") {
  // Chat and reports allowed fast (a burst of 1,000), so that the report bound is what refuses.
  ServerProcess server({"--chat-per-minute", "6000"});
  auto troll = account_connection(server.port(), "troll");
  auto victim = connect_as(server.port(), "victim");
  REQUIRE(victim->request(subscribe_lobby()).result() == OK);
  for (int i = 0; i < 12; ++i) {
    REQUIRE(troll->request(chat_message(0, "line " + std::to_string(i))).result() == OK);
  }
  REQUIRE(victim->wait_until([&] { return chat_lines(*victim, "line 11") == 1; }));
  std::vector<uint64_t> lines;
  for (const auto& m : victim->pushed()) {
    if (m.has_chat()) lines.push_back(m.chat().message_id());
  }
  REQUIRE(lines.size() >= 12);
  ClientMessage report;
  report.mutable_report()->set_reason("insult");
  for (int i = 0; i < 10; ++i) {
    report.mutable_report()->set_message_id(lines[i]);
    REQUIRE(victim->request(report).result() == OK);
  }
  report.mutable_report()->set_message_id(lines[10]);
  const ServerMessage refused = victim->request(report);
  CHECK(refused.result() == RATE_LIMITED);
  CHECK(refused.reason().find("10") != std::string::npos);
  // Another reporter is not held by the first one's reports.
  auto other = connect_as(server.port(), "other");
  report.mutable_report()->set_message_id(lines[11]);
  CHECK(other->request(report).result() == OK);
}

TEST_CASE("moderation: announcements are rate-limited like chat") {
  ServerProcess server;  // 30 chat lines a minute, a burst of 5
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  ClientMessage announce;
  announce.mutable_announce()->set_text("restart at 22:00");
  int accepted = 0;
  ServerMessage last;
  for (int i = 0; i < 8; ++i) {
    last = mod->request(announce);
    if (last.result() != OK) break;
    ++accepted;
  }
  CHECK(accepted == 5);
  CHECK(last.result() == RATE_LIMITED);
}
