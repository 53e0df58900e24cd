// Address bans at the handshake (HTTP 403 with the reason and expiry, IPv4, IPv6 prefixes, the
// client's address behind a trusted proxy), and what moderators do to matches and everyone:
// aborted matches, announcements, reports, the audit log, ignores, and a restart keeping it all
// (docs/moderation.md).
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "moderation_helpers.hpp"
#include "support/throwaway_postgres.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// A WebSocket upgrade of /ws with this X-Forwarded-For; the HTTP status and body of the answer
// (101 for an accepted upgrade).
HttpAnswer upgrade_with(uint16_t port, const std::vector<std::string>& forwarded_lines) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  http::request<http::empty_body> req{http::verb::get, "/ws", 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::upgrade, "websocket");
  req.set(http::field::connection, "Upgrade");
  req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  req.set(http::field::sec_websocket_version, "13");
  for (const auto& line : forwarded_lines) req.insert("X-Forwarded-For", line);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(false);
  http::read_header(stream, buffer, parser);
  if (parser.get().result_int() != 101) http::read(stream, buffer, parser);
  beast::error_code ec;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  return {parser.get().result_int(), parser.get().body()};
}

HttpAnswer upgrade_as(uint16_t port, const std::string& forwarded_for) {
  if (forwarded_for.empty()) return upgrade_with(port, {});
  return upgrade_with(port, {forwarded_for});
}

ModerationTarget address_target(const std::string& address) {
  ModerationTarget t;
  t.set_address(address);
  return t;
}

}  // namespace

TEST_CASE("moderation: a banned address is refused at the handshake with 403, reason, expiry") {
  // Loopback is a trusted proxy, so X-Forwarded-For names the client (as behind nginx).
  ServerProcess server({"--trusted-proxy", "127.0.0.0/8"});
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  CHECK(mod->request(ban_message(address_target("2001:db8::/33x"), 0, "x")).result() == BAD_TARGET);
  // The moderator's own address (127.0.0.1, no header) is not banned by mistake.
  CHECK(mod->request(ban_message(address_target("127.0.0.0/8"), 0, "x")).result() ==
        PROTECTED_TARGET);
  REQUIRE(mod->request(ban_message(address_target("2001:db8::/32"), 3600, "spam bots")).result() ==
          OK);
  REQUIRE(mod->request(ban_message(address_target("203.0.113.7"), 0, "abuse")).result() == OK);

  const HttpAnswer v6 = upgrade_as(server.port(), "2001:db8:1:2::99");
  CHECK(v6.status == 403);
  CHECK(v6.body.find("\"error\":\"BANNED\"") != std::string::npos);
  CHECK(v6.body.find("spam bots") != std::string::npos);
  CHECK(v6.body.find("\"expires_ms\":0") == std::string::npos);  // a time was given
  const HttpAnswer v4 = upgrade_as(server.port(), "203.0.113.7");
  CHECK(v4.status == 403);
  CHECK(v4.body.find("banned for good: abuse") != std::string::npos);
  CHECK(v4.body.find("\"expires_ms\":0") != std::string::npos);
  // Outside the prefixes, and the proxy itself: let in.
  CHECK(upgrade_as(server.port(), "2001:db9::1").status == 101);
  CHECK(upgrade_as(server.port(), "203.0.113.8").status == 101);
  CHECK(upgrade_as(server.port(), "").status == 101);
  CHECK(server.alive());
}

TEST_CASE(
    "moderation: item 3: a banned client behind a trusted proxy cannot hide in X-Forwarded-For") {
  ServerProcess server({"--trusted-proxy", "127.0.0.0/8"});
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  REQUIRE(mod->request(ban_message(address_target("203.0.113.5"), 0, "abuse")).result() == OK);
  CHECK(upgrade_as(server.port(), "garbage, 203.0.113.5").status == 403);
  CHECK(upgrade_as(server.port(), "unknown, 203.0.113.5").status == 403);
  CHECK(upgrade_as(server.port(), "203.0.113.5:4711").status == 403);
  CHECK(upgrade_with(server.port(), {"198.51.100.1", "203.0.113.5"}).status == 403);
  // A hop that names no address where the client should be: refused, not let in as the proxy.
  CHECK(upgrade_as(server.port(), "203.0.113.5, unknown").status == 400);
  CHECK(upgrade_as(server.port(), "198.51.100.1").status == 101);
  CHECK(server.alive());
}

TEST_CASE("moderation: X-Forwarded-For from a peer that is not a trusted proxy is not believed") {
  ServerProcess server;  // no trusted proxy
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  REQUIRE(mod->request(ban_message(address_target("198.51.100.0/24"), 0, "x")).result() == OK);
  // The header cannot make a client someone banned, nor someone else.
  CHECK(upgrade_as(server.port(), "198.51.100.1").status == 101);
  CHECK(http_get(server.port(), "/api/ban").body == "{\"banned\":false}");
}

TEST_CASE("moderation: a match aborted by a moderator ends as aborted and its players are told") {
  ServerProcess server;
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto a = connect_as(server.port(), "a");
  auto b = connect_as(server.port(), "b");
  auto created = a->request(create_match("force_battles", 2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage abort;
  abort.mutable_abort_match()->set_match_id(id);
  abort.mutable_abort_match()->set_reason("bug report");
  CHECK(mod->request(abort).result() == WRONG_MATCH_STATE);  // not started yet
  REQUIRE(b->request(join_match(id, 1)).result() == OK);
  REQUIRE(a->wait_until([&] {
    auto* t = a->tracker().find(id);
    return t && !t->view.empty();
  }));
  ClientMessage list;
  list.mutable_list_live_matches();
  const auto live = mod->request(list);
  REQUIRE(live.result() == OK);
  CHECK(live.matches().matches_size() == 1);
  CHECK(a->request(abort).result() == NOT_MODERATOR);
  REQUIRE(mod->request(abort).result() == OK);
  for (auto* c : {a.get(), b.get()}) {
    REQUIRE(c->wait_until([&] {
      auto* t = c->tracker().find(id);
      return t && t->ended;
    }));
    CHECK(c->tracker().find(id)->status == ABORTED);
  }
  CHECK(mod->request(abort).result() == MATCH_OVER);
}

TEST_CASE("moderation: an announcement reaches every connection") {
  ServerProcess server;
  auto mod = account_connection(server.port(), "mod");
  grant_on_command_line(server, "mod", "moderator");
  auto a = connect_as(server.port(), "a");
  auto b = connect_as(server.port(), "b");
  ClientMessage announce;
  announce.mutable_announce()->set_text("restart at 22:00");
  REQUIRE(mod->request(announce).result() == OK);
  for (auto* c : {a.get(), b.get()}) {
    CHECK(c->wait_until([&] {
      for (const auto& m : c->pushed()) {
        if (m.has_announcement() && m.announcement().text() == "restart at 22:00" &&
            m.announcement().from() == "mod") {
          return true;
        }
      }
      return false;
    }));
  }
  announce.mutable_announce()->set_text("");
  CHECK(mod->request(announce).result() == CHAT_TOO_LONG);
}

TEST_CASE("moderation: an ignored player's chat does not reach the ignorer") {
  ServerProcess server;
  auto alice = account_connection(server.port(), "alice");
  auto bob = account_connection(server.port(), "bob");
  auto carol = connect_as(server.port(), "carol");
  for (auto* c : {alice.get(), bob.get(), carol.get()}) {
    REQUIRE(c->request(subscribe_lobby()).result() == OK);
  }
  REQUIRE(bob->request(chat_message(0, "first")).result() == OK);
  REQUIRE(alice->wait_until([&] { return chat_lines(*alice, "first") == 1; }));
  uint64_t bob_player = 0;
  for (const auto& m : alice->pushed()) {
    if (m.has_chat() && m.chat().text() == "first") bob_player = m.chat().from_player();
  }
  REQUIRE(bob_player != 0);
  ClientMessage ignore;
  ignore.mutable_ignore()->mutable_target()->set_player_id(bob_player);
  ignore.mutable_ignore()->set_ignore(true);
  const auto ignored = alice->request(ignore);
  REQUIRE(ignored.result() == OK);
  CHECK(ignored.ignores().names_size() == 1);
  REQUIRE(bob->request(chat_message(0, "second")).result() == OK);
  REQUIRE(carol->request(chat_message(0, "marker")).result() == OK);
  REQUIRE(alice->wait_until([&] { return chat_lines(*alice, "marker") == 1; }));
  CHECK(chat_lines(*alice, "second") == 0);
  CHECK(carol->wait_until([&] { return chat_lines(*carol, "second") == 1; }));
  // Stored with the account: a new connection of alice still ignores bob.
  ClientMessage self;
  self.mutable_ignore()->mutable_target()->set_account("alice");
  self.mutable_ignore()->set_ignore(true);
  CHECK(alice->request(self).result() == BAD_TARGET);
}

TEST_CASE("moderation: reports queue for moderators, and the audit log lists every action") {
  // "postgresql": the accounts and the moderation data live in a throw-away PostgreSQL database
  // (--database), which the admin command and the restarted server use too.
  const std::string backend = GENERATE("sqlite", "postgresql");
  CAPTURE(backend);
  std::vector<std::string> flags;
  if (backend == "postgresql") flags = {"--database", ThrowawayPostgres::shared().new_database()};
  const auto data = temp_data_dir("moderation-" + backend);
  {
    ServerProcess server(flags, data, true);
    auto mod = account_connection(server.port(), "mod");
    grant_on_command_line(server, "mod", "moderator", flags);
    auto troll = account_connection(server.port(), "troll");
    auto victim = connect_as(server.port(), "victim");
    REQUIRE(victim->request(subscribe_lobby()).result() == OK);
    REQUIRE(troll->request(chat_message(0, "you are bad")).result() == OK);
    REQUIRE(victim->wait_until([&] { return chat_lines(*victim, "you are bad") == 1; }));
    uint64_t line = 0;
    for (const auto& m : victim->pushed()) {
      if (m.has_chat()) line = m.chat().message_id();
    }
    ClientMessage report;
    report.mutable_report()->set_message_id(line);
    report.mutable_report()->set_reason("insult");
    REQUIRE(victim->request(report).result() == OK);
    report.mutable_report()->set_message_id(line + 1000);
    CHECK(victim->request(report).result() == UNKNOWN_TARGET);

    ClientMessage reports;
    reports.mutable_list_reports();
    CHECK(victim->request(reports).result() == NOT_MODERATOR);
    const auto queue = mod->request(reports);
    REQUIRE(queue.reports().reports_size() == 1);
    const ReportEntry& entry = queue.reports().reports(0);
    CHECK(entry.reporter() == "victim");
    CHECK(entry.target() == "troll");
    CHECK(entry.target_account() == "troll");
    CHECK(entry.message() == "you are bad");  // as the server sent it, not as a client claims
    CHECK(entry.reason() == "insult");
    REQUIRE(mod->request(mute_message(account_target("troll"), 0, "insult")).result() == OK);
    REQUIRE(mod->request(ban_message(account_target("troll"), 0, "again")).result() == OK);
    ClientMessage resolve;
    resolve.mutable_resolve_report()->set_report_id(entry.id());
    resolve.mutable_resolve_report()->set_note("muted and banned");
    REQUIRE(mod->request(resolve).result() == OK);
    CHECK(mod->request(resolve).result() == UNKNOWN_TARGET);
    CHECK(mod->request(reports).reports().reports_size() == 0);
    server.stop_cleanly();
  }
  // After a restart: the ban holds, the audit log and the resolved report are there.
  ServerProcess server(flags, data, true);
  auto mod = connect_as(server.port(), "x");
  REQUIRE(mod->request(sign_in_message("mod", "correct horse")).result() == OK);
  auto troll = connect_as(server.port(), "y");
  CHECK(troll->request(sign_in_message("troll", "correct horse")).result() == BANNED);
  ClientMessage audit;
  audit.mutable_list_audit();
  const auto log = mod->request(audit);
  REQUIRE(log.result() == OK);
  std::vector<std::string> actions;
  for (const auto& e : log.audit().entries()) {
    actions.push_back(e.action() + " " + e.target());
    CHECK(e.at_ms() > 0);
  }
  CHECK(actions ==
        std::vector<std::string>{"resolve report 1", "ban troll", "mute troll", "role mod"});
  CHECK(log.audit().entries(1).actor() == "mod");
  CHECK(log.audit().entries(1).reason() == "again");
  ClientMessage reports;
  reports.mutable_list_reports()->set_include_resolved(true);
  const auto all = mod->request(reports);
  REQUIRE(all.reports().reports_size() == 1);
  CHECK(all.reports().reports(0).resolved_by() == "mod");
  ClientMessage bans;
  bans.mutable_list_bans();
  CHECK(mod->request(bans).bans().bans_size() == 1);
}
