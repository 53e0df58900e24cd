// What a player holds across the matches it plays: a player on one connection for a long time
// (a loadgen's player, a regular) must not keep something of every match it ever played.
#include <catch2/catch.hpp>

#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::create_message;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

// Plays this client's seat against the bot to the end, always taking the first offered action.
void play_out(InProcessClient& c, uint64_t id) {
  for (int guard = 0; guard < 200; ++guard) {
    REQUIRE(c.wait_until([&] {
      auto* t = c.tracker.find(id);
      return t && (t->ended || !t->legal.empty());
    }));
    const auto* t = c.tracker.find(id);
    if (t->ended) return;
    const uint64_t seq = t->seq;
    ClientMessage m;
    m.mutable_action()->set_match_id(id);
    m.mutable_action()->set_code(t->legal.front().code());
    m.mutable_action()->set_seq(seq);
    REQUIRE(c.request(m).result() == OK);
    REQUIRE(c.wait_until([&] { return c.tracker.find(id)->seq > seq; }));
  }
  FAIL("the match did not end");
}

}  // namespace

TEST_CASE("a player who plays match after match holds only its live matches, not every one") {
  server::Config config;
  config.finished_linger_seconds = 0;  // an ended match is forgotten at once
  InProcessServer server(config);
  InProcessClient ann(server);
  const auto welcome = ann.hello("Ann");
  const auto player = server.hub->find_player(welcome.welcome().resume_token());
  REQUIRE(player);
  constexpr int kMatches = 20;
  for (int i = 0; i < kMatches; ++i) {
    const auto reply = ann.request(create_message(2, true, 1));
    REQUIRE(reply.result() == OK);
    const uint64_t id = reply.created().match().match_id();
    play_out(ann, id);
    REQUIRE(ann.wait_until([&] { return server.hub->find_match(id) == nullptr; }));
  }
  // Each entry of a gone match would keep that match's whole allocation (make_shared) alive.
  REQUIRE(ann.request(create_message(2, true, 1)).result() == OK);
  CHECK(player->match_entries() == 1);
  CHECK(server.hub->match_count() == 1);
}
