// Resigning and abandonment against the real server: a resignation ends the match for both
// players and a spectator in every ruleset (the resigner loses, the others win), it is refused
// with a typed code to whoever holds no seat or after the end, and a match whose humans have all
// left ends (or is played out by the bots when the host configures `--abandoned bots`). The record
// of a match ended that way verifies and imports: its replay stops short of the rules' end, and
// duelhall-verify names the ending the server decided.
#include "core/registry.hpp"
#include "helpers.hpp"
#include "record_helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage resign(uint64_t id) {
  ClientMessage m;
  m.mutable_resign()->set_match_id(id);
  return m;
}

ClientMessage leave(uint64_t id) {
  ClientMessage m;
  m.mutable_leave_match()->set_match_id(id);
  return m;
}

bool ended(WsClient& c, uint64_t id) {
  return c.wait_until(
      [&] {
        auto* t = c.tracker().find(id);
        return t && t->ended;
      },
      std::chrono::seconds(10));
}

std::vector<uint32_t> winners_of(WsClient& c, uint64_t id) {
  const auto& w = c.tracker().find(id)->outcome.winners();
  return {w.begin(), w.end()};
}

const MatchInfo* listed(WsClient& c, uint64_t id) {
  ClientMessage list;
  list.mutable_list_matches();
  static ServerMessage reply;
  reply = c.request(list);
  for (const auto& m : reply.matches().matches()) {
    if (m.match_id() == id) return &m;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("resigning ends the match for both players and a spectator, in every ruleset") {
  ServerProcess server;
  const auto registry = engine::builtin_registry();
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  auto cat = connect_as(server.port(), "Cat");
  auto dan = connect_as(server.port(), "Dan");
  for (const auto& info : registry.all()) {
    INFO(info.name);
    auto created = ann->request(create_match(info.name, 2, true, 0));
    REQUIRE(created.result() == OK);
    const uint64_t id = created.created().match().match_id();
    CHECK(ann->request(resign(id)).result() == WRONG_MATCH_STATE);  // not started yet
    REQUIRE(cat->request(spectate(id)).result() == OK);
    REQUIRE(ben->request(join_match(id, 1)).result() == OK);
    REQUIRE(ann->wait_until([&] { return ann->tracker().find(id) != nullptr; }));
    CHECK(cat->request(resign(id)).result() == NOT_ALLOWED_FOR_SPECTATORS);
    CHECK(dan->request(resign(id)).result() == NOT_IN_MATCH);
    // Ben resigns whether or not it is his decision.
    REQUIRE(ben->request(resign(id)).result() == OK);
    for (WsClient* c : {ann.get(), ben.get(), cat.get()}) {
      REQUIRE(ended(*c, id));
      const auto* t = c->tracker().find(id);
      CHECK(t->status == FINISHED);
      CHECK(t->outcome.reason() == "@1 resigns");
      CHECK(winners_of(*c, id) == std::vector<uint32_t>{0});
    }
    CHECK(ben->request(resign(id)).result() == MATCH_OVER);
    CHECK(ann->request(resign(id)).result() == MATCH_OVER);
    const MatchInfo* row = listed(*dan, id);
    REQUIRE(row != nullptr);
    CHECK(row->status() == FINISHED);
  }
  CHECK(dan->request(resign(987654)).result() == UNKNOWN_MATCH);
  CHECK(server.alive());
}

TEST_CASE("a resignation among three seats leaves the other two sharing the win") {
  ServerProcess server;
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  auto m = create_match("jedi_duel", 3, true, 1);
  auto created = ann->request(m);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(ben->request(join_match(id, -1)).result() == OK);
  REQUIRE(ben->wait_until([&] { return ben->tracker().find(id) != nullptr; }));
  const int ben_seat = ben->tracker().find(id)->seat;
  REQUIRE(ben->request(resign(id)).result() == OK);
  REQUIRE(ended(*ann, id));
  std::vector<uint32_t> others;
  for (uint32_t s = 0; s < 3; ++s) {
    if (static_cast<int>(s) != ben_seat) others.push_back(s);
  }
  CHECK(winners_of(*ann, id) == others);
}

TEST_CASE("a match whose humans have all left ends and leaves the playing list") {
  ServerProcess server;
  auto ann = connect_as(server.port(), "Ann");
  auto watcher = connect_as(server.port(), "Wat");
  auto m = create_match("jedi_duel", 2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(5000);  // the bot waits
  auto created = ann->request(m);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(watcher->request(spectate(id)).result() == OK);
  REQUIRE(listed(*watcher, id)->status() == PLAYING);
  REQUIRE(ann->request(leave(id)).result() == OK);
  REQUIRE(ended(*watcher, id));
  const auto* t = watcher->tracker().find(id);
  CHECK(t->status == FINISHED);
  CHECK(t->outcome.reason() == "every player left the match");
  CHECK(t->outcome.winners_size() == 0);
  CHECK(listed(*watcher, id)->status() == FINISHED);
}

TEST_CASE(
    "the record of a match ended by a resignation or by every player leaving verifies, naming that "
    "ending, and imports") {
  ServerProcess server;
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  auto cat = connect_as(server.port(), "Cat");  // watches: the players who leave are not told
  const auto registry = engine::builtin_registry();
  for (const auto& info : registry.all()) {
    INFO(info.name);
    for (const bool resigns : {true, false}) {
      auto created = ann->request(create_match(info.name, 2, true, 0));
      REQUIRE(created.result() == OK);
      const uint64_t id = created.created().match().match_id();
      REQUIRE(cat->request(spectate(id)).result() == OK);
      REQUIRE(ben->request(join_match(id, 1)).result() == OK);
      REQUIRE(ann->wait_until([&] { return ann->tracker().find(id) != nullptr; }));
      if (resigns) {
        REQUIRE(ben->request(resign(id)).result() == OK);
      } else {
        REQUIRE(ben->request(leave(id)).result() == OK);
        REQUIRE(ann->request(leave(id)).result() == OK);
      }
      REQUIRE(ended(*cat, id));
      const std::string ending = resigns ? "@1 resigns" : "every player left the match";
      // The end (and a short match's very creation) reaches the viewers before the store's
      // writer has committed it: until then the record is not served.
      ServerMessage exported;
      for (int tries = 0; tries < 200; ++tries) {
        exported = ann->request(export_match(id));
        if (exported.result() != MATCH_NOT_ENDED) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      REQUIRE(exported.result() == OK);
      const std::string record = exported.exported().record();
      const ExitResult verified = verify_file(record);
      INFO(verified.output);
      CHECK(verified.status == 0);
      CHECK_THAT(verified.output, Catch::Contains("'" + ending + "'"));
      CHECK(ann->request(import_match(record)).result() == OK);
      // The same record claiming another seat resigned does not verify: its winners are not
      // that ending's.
      if (resigns) {
        std::string tampered = record;
        const size_t at = tampered.find("@1%20resigns");  // the record escapes spaces
        REQUIRE(at != std::string::npos);
        tampered[at + 1] = '0';
        CHECK(verify_file(tampered).status == 1);
      }
    }
  }
}

TEST_CASE("with --abandoned bots the bots play an abandoned match out") {
  ServerProcess server({"--abandoned", "bots"});
  auto ann = connect_as(server.port(), "Ann");
  auto watcher = connect_as(server.port(), "Wat");
  auto m = create_match("jedi_duel", 2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(1);
  auto created = ann->request(m);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(watcher->request(spectate(id)).result() == OK);
  REQUIRE(ann->request(leave(id)).result() == OK);
  REQUIRE(watcher->wait_until(
      [&] {
        auto* t = watcher->tracker().find(id);
        return t && t->ended;
      },
      std::chrono::seconds(60)));
  const auto* t = watcher->tracker().find(id);
  CHECK(t->status == FINISHED);
  CHECK(t->outcome.reason() != "every player left the match");
}

TEST_CASE("a 20-character accented name is welcome, and 33 characters are refused in characters") {
  ServerProcess server;
  auto zoe = connect_as(server.port(), "Zo\xc3\xab \xc3\x89lodie-Fran\xc3\xa7oise \xc3\x85s");
  WsClient again;
  again.connect("127.0.0.1", server.port());
  std::string long_name;
  for (int i = 0; i < 33; ++i) long_name += "\xc3\xa9";
  auto refused = again.hello(long_name);
  CHECK(refused.result() == BAD_NAME);
  CHECK(refused.reason().find("32 characters") != std::string::npos);
}
