// A finished match gives its memory back: once it stops being listed nothing keeps it alive (a
// decision clock's pending wait used to hold it until the clock would have run out).
#include <catch2/catch.hpp>

#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::create_message;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

TEST_CASE("a finished match with a decision clock is destroyed once it is no longer listed") {
  server::Config config;
  config.finished_linger_seconds = 0;
  InProcessServer server(config);
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  ClientMessage create = create_message(2, true, 0);
  create.mutable_create_match()->mutable_settings()->set_clock_seconds(3600);
  const ServerMessage created = ann.request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(ben.request(join).result() == OK);
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id) != nullptr; }));
  std::weak_ptr<server::Match> match = server.hub->find_match(id);
  REQUIRE_FALSE(match.expired());

  ClientMessage resign;
  resign.mutable_resign()->set_match_id(id);
  REQUIRE(ann.request(resign).result() == OK);
  REQUIRE(ann.wait_until([&] { return server.hub->find_match(id) == nullptr; }));
  ann.wait_until([] { return false; }, std::chrono::milliseconds(20));
  CHECK(match.expired());
}
