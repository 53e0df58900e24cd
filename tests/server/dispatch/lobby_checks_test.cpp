// What the lobby commands promise a client written from docs/protocol.md alone: a MatchCreated
// that describes the match fully, values out of range refused with BAD_PARAMETERS, and the
// documented answers for a default seat count, a spectator of a waiting match and the player who
// fills the last seat.
#include <google/protobuf/util/message_differencer.h>

#include <catch2/catch.hpp>
#include <climits>

#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using duelhall::testing::create_message;

namespace {

ClientMessage join_message(uint64_t id, int32_t seat) {
  ClientMessage m;
  m.mutable_join_match()->set_match_id(id);
  m.mutable_join_match()->set_seat(seat);
  return m;
}

MatchInfo listing_of(InProcessClient& client, uint64_t id) {
  ClientMessage list;
  list.mutable_list_matches();
  const ServerMessage reply = client.request(list);
  for (const auto& info : reply.matches().matches()) {
    if (info.match_id() == id) return info;
  }
  FAIL("match " << id << " is not listed");
  return {};
}

}  // namespace

TEST_CASE("MatchCreated describes the match as fully as ListMatches and Joined do") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto m = create_message(3, true, 0);
  m.mutable_create_match()->mutable_settings()->set_spectator_delay_actions(2);
  m.mutable_create_match()->mutable_settings()->set_clock_seconds(60);
  (*m.mutable_create_match()->mutable_settings()->mutable_params())["hand"] = "2";
  auto created = host.request(m);
  REQUIRE(created.result() == OK);
  const MatchInfo& info = created.created().match();
  CHECK(info.status() == WAITING);
  REQUIRE(info.seats_size() == 3);
  CHECK(info.seats(0).occupant() == SeatInfo::HUMAN);
  CHECK(info.seats(0).name() == "Ann");
  CHECK(info.seats(1).occupant() == SeatInfo::EMPTY);
  CHECK(info.host() == "Ann");
  CHECK(info.spectators_allowed());
  CHECK(info.settings().spectator_delay_actions() == 2);
  CHECK(info.settings().clock_seconds() == 60);
  CHECK(info.settings().bot_level() == "random");  // the ruleset's default, resolved
  CHECK(info.seed_commitment().size() == 64);
  CHECK_FALSE(info.engine_version().empty());
  // Field for field what the lobby lists for the same match.
  server.pump(std::chrono::milliseconds(20));  // the listing is published on the match's strand
  const MatchInfo listed = listing_of(host, info.match_id());
  CHECK(google::protobuf::util::MessageDifferencer::Equals(info, listed));

  InProcessClient guest(server);
  guest.hello("Ben");
  auto joined = guest.request(join_message(info.match_id(), 1));
  REQUIRE(joined.result() == OK);
  MatchInfo expected = info;
  expected.mutable_seats(1)->set_occupant(SeatInfo::HUMAN);
  expected.mutable_seats(1)->set_name("Ben");
  expected.mutable_seats(1)->set_connected(true);
  CHECK(google::protobuf::util::MessageDifferencer::Equals(joined.joined().match(), expected));
}

TEST_CASE("a seat below -1 is refused with BAD_PARAMETERS, not taken as any seat") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto created = host.request(create_message(3, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  InProcessClient guest(server);
  guest.hello("Ben");
  for (const int32_t seat : {-2, -100, INT_MIN}) {
    INFO("seat " << seat);
    auto reply = guest.request(join_message(id, seat));
    CHECK(reply.result() == BAD_PARAMETERS);
    CHECK(reply.reason().find("seat") != std::string::npos);
  }
  server.pump(std::chrono::milliseconds(20));
  const MatchInfo listed = listing_of(guest, id);
  CHECK(listed.seats(1).occupant() == SeatInfo::EMPTY);
  CHECK(listed.seats(2).occupant() == SeatInfo::EMPTY);
  auto any = guest.request(join_message(id, -1));
  REQUIRE(any.result() == OK);
  CHECK(any.joined().seat() == 1);
}

TEST_CASE("a bot level the ruleset does not offer is refused by CreateMatch and FillWithBots") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_bot_level("grandmaster");
  auto refused = host.request(m);
  CHECK(refused.result() == BAD_PARAMETERS);
  CHECK(refused.reason().find("grandmaster") != std::string::npos);

  auto created = host.request(create_message(2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage fill;
  fill.mutable_fill_with_bots()->set_match_id(id);
  fill.mutable_fill_with_bots()->set_level("grandmaster");
  auto filled = host.request(fill);
  CHECK(filled.result() == BAD_PARAMETERS);
  CHECK(filled.reason().find("grandmaster") != std::string::npos);
  server.pump(std::chrono::milliseconds(20));
  CHECK(listing_of(host, id).status() == WAITING);
  CHECK(listing_of(host, id).seats(1).occupant() == SeatInfo::EMPTY);
  fill.mutable_fill_with_bots()->set_level("random");
  CHECK(host.request(fill).result() == OK);
}

TEST_CASE("a decision clock too long for clock_ms is refused, a long one counts down unwrapped") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_clock_seconds(4294968);  // 2^32 ms and more
  auto refused = host.request(m);
  CHECK(refused.result() == BAD_PARAMETERS);
  CHECK(refused.reason().find("clock") != std::string::npos);

  m.mutable_create_match()->mutable_settings()->set_clock_seconds(86400);  // the longest
  auto created = host.request(m);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(host.wait_until([&] {
    auto* t = host.tracker.find(id);
    return t && !t->legal.empty();
  }));
  uint32_t clock_ms = 0;
  for (const auto& msg : host.inbox) {
    if (msg.has_snapshot() && msg.snapshot().legal_size() > 0) clock_ms = msg.snapshot().clock_ms();
    if (msg.has_update() && msg.update().legal_size() > 0) clock_ms = msg.update().clock_ms();
  }
  CHECK(clock_ms > 86'000'000u);
  CHECK(clock_ms <= 86'400'000u);
}

// Settled in docs/protocol.md: seats 0 (the proto3 default) is the ruleset's minimum.
TEST_CASE("CreateMatch with seats 0 creates the ruleset's minimum of seats") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto created = host.request(create_message(0, true, 0));
  REQUIRE(created.result() == OK);
  CHECK(created.created().match().seats_size() == 2);
  CHECK(created.created().match().settings().seats() == 2);
}

// Settled in docs/protocol.md: a spectator of a waiting match holds an empty view at seq 0; the
// start sends it a new snapshot, which replaces the view whatever its seq.
TEST_CASE("a spectator of a waiting match gets an empty view, then a snapshot at the start") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto created = host.request(create_message(2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  auto waiting = watcher.request(spectate);
  REQUIRE(waiting.has_snapshot());
  CHECK(waiting.snapshot().seq() == 0);
  CHECK(waiting.snapshot().view().empty());
  CHECK(waiting.snapshot().match().status() == WAITING);
  InProcessClient guest(server);
  guest.hello("Ben");
  REQUIRE(guest.request(join_message(id, -1)).result() == OK);
  REQUIRE(watcher.wait_until([&] { return !watcher.inbox.empty(); }));
  const ServerMessage& start = watcher.inbox.front();
  REQUIRE(start.has_snapshot());
  CHECK(start.snapshot().seq() == 0);
  CHECK(start.snapshot().seat() == -1);
  CHECK(start.snapshot().match().status() == PLAYING);
  CHECK_FALSE(start.snapshot().view().empty());
  CHECK_FALSE(watcher.tracker.find(id)->broken);
  CHECK(watcher.tracker.find(id)->view == start.snapshot().view());
}

// Settled in docs/protocol.md: Joined describes the match as the join left it, before the start
// it sets off; the snapshot of the started match follows it on the same connection.
TEST_CASE("the player who fills the last seat gets Joined with every seat taken, then the start") {
  InProcessServer server;
  InProcessClient host(server);
  host.hello("Ann");
  auto created = host.request(create_message(2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  InProcessClient guest(server);
  guest.hello("Ben");
  guest.send(join_message(id, -1));
  REQUIRE(guest.wait_until([&] { return guest.inbox.size() >= 2; }));
  const ServerMessage& joined = guest.inbox[0];
  REQUIRE(joined.has_joined());
  CHECK(joined.joined().match().status() == WAITING);
  CHECK(joined.joined().match().seats(1).name() == "Ben");
  const ServerMessage& start = guest.inbox[1];
  REQUIRE(start.has_snapshot());
  CHECK(start.snapshot().match().status() == PLAYING);
  CHECK(start.snapshot().seat() == 1);
}
