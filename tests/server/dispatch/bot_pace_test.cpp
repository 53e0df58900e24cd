// The bot delay paces the moves a player waits to see, not the steps of a decision the player
// makes at the same time (Force Battles' secret simultaneous setup: 27 steps a side).
#include <catch2/catch.hpp>

#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using duelhall::testing::create_message;

TEST_CASE("bots: a simultaneous secret setup is not paced by the bot delay") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_ruleset("force_battles");
  m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(5000);
  auto reply = ann.request(m);
  REQUIRE(reply.result() == OK);
  const uint64_t id = reply.created().match().match_id();
  // Ann has not moved: the bot's setup steps all go through while she still decides hers. At
  // 5 s a step they would take over two minutes; here they take well under two seconds.
  REQUIRE(ann.wait_until([&] {
    const auto* t = ann.tracker.find(id);
    return t && t->seq >= 20 && !t->legal.empty();
  }, std::chrono::milliseconds(2000)));
}
