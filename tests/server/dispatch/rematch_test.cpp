// Rematches (pairing/pairing_rematch.cpp): at the end of a two-player match either side offers,
// the other accepts (a match with the same settings, seats swapped, both told) or declines.
#include <catch2/catch.hpp>

#include "pairing/pairing_room.hpp"
#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::create_message;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

// Ann at seat 0, Ben at seat 1 of a started two-seat match with a 20 s clock; its id.
uint64_t start_match(InProcessClient& ann, InProcessClient& ben) {
  ClientMessage create = create_message(2, true, 0);
  create.mutable_create_match()->mutable_settings()->set_clock_seconds(20);
  const ServerMessage created = ann.request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(ben.request(join).result() == OK);
  REQUIRE(ann.wait_until([&] {
    const auto* t = ann.tracker.find(id);
    return t && t->status == PLAYING;
  }));
  return id;
}

void finish(InProcessClient& loser, uint64_t id) {
  ClientMessage resign;
  resign.mutable_resign()->set_match_id(id);
  REQUIRE(loser.request(resign).result() == OK);
  REQUIRE(loser.wait_until([&] {
    const auto* t = loser.tracker.find(id);
    return t && t->status == FINISHED;
  }));
}

ClientMessage offer(uint64_t id) {
  ClientMessage m;
  m.mutable_offer_rematch()->set_match_id(id);
  return m;
}

ClientMessage answer(uint64_t id, bool accept, const std::string& reason = {}) {
  ClientMessage m;
  m.mutable_answer_rematch()->set_match_id(id);
  m.mutable_answer_rematch()->set_accept(accept);
  m.mutable_answer_rematch()->set_reason(reason);
  return m;
}

template <typename Has>
std::optional<ServerMessage> pushed(InProcessClient& client, Has has) {
  client.wait_until(
      [&] {
        for (const auto& m : client.inbox) {
          if (has(m)) return true;
        }
        return false;
      },
      std::chrono::milliseconds(500));
  for (auto it = client.inbox.begin(); it != client.inbox.end(); ++it) {
    if (has(*it)) {
      ServerMessage found = *it;
      client.inbox.erase(it);
      return found;
    }
  }
  return std::nullopt;
}

bool has_offer(const ServerMessage& m) {
  return m.has_rematch_offer();
}
bool has_paired(const ServerMessage& m) {
  return m.has_paired();
}

}  // namespace

TEST_CASE("rematch: accepted, a match with the same settings starts with the seats swapped") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  const uint64_t id = start_match(ann, ben);
  finish(ann, id);
  REQUIRE(ann.request(offer(id)).result() == OK);
  const auto offered = pushed(ben, has_offer);
  REQUIRE(offered);
  CHECK(offered->rematch_offer().match_id() == id);
  CHECK(offered->rematch_offer().from() == "Ann");
  CHECK_FALSE(offered->rematch_offer().declined());
  REQUIRE(ben.request(answer(id, true)).result() == OK);
  const auto ann_paired = pushed(ann, has_paired);
  const auto ben_paired = pushed(ben, has_paired);
  REQUIRE(ann_paired);
  REQUIRE(ben_paired);
  CHECK(ann_paired->paired().match_id() == ben_paired->paired().match_id());
  CHECK(ann_paired->paired().match_id() != id);
  CHECK(ann_paired->paired().rematch());
  CHECK(ann_paired->paired().previous_match_id() == id);
  CHECK(ann_paired->paired().seat() == 1);  // Ann sat at 0
  CHECK(ben_paired->paired().seat() == 0);
  CHECK(ben_paired->paired().match().settings().clock_seconds() == 20);
  const uint64_t next = ann_paired->paired().match_id();
  REQUIRE(ann.wait_until([&] {
    const auto* t = ann.tracker.find(next);
    return t && t->status == PLAYING;
  }));
  // The offer was used: answering again finds none.
  CHECK(ben.request(answer(id, true)).result() == REMATCH_UNAVAILABLE);
}

TEST_CASE("rematch: declined, the offerer is told why and no second offer is taken") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  const uint64_t id = start_match(ann, ben);
  finish(ben, id);
  REQUIRE(ben.request(offer(id)).result() == OK);
  CHECK(ben.request(offer(id)).result() == REMATCH_UNAVAILABLE);  // already waiting
  REQUIRE(pushed(ann, has_offer));
  REQUIRE(ann.request(answer(id, false, "off to bed")).result() == OK);
  const auto declined = pushed(ben, has_offer);
  REQUIRE(declined);
  CHECK(declined->rematch_offer().declined());
  CHECK(declined->rematch_offer().reason() == "off to bed");
  CHECK(ben.request(offer(id)).result() == REMATCH_UNAVAILABLE);
  CHECK(ann.request(offer(id)).result() == REMATCH_UNAVAILABLE);
  CHECK(ann.request(answer(id, true)).result() == REMATCH_UNAVAILABLE);
  CHECK_FALSE(pushed(ann, has_paired));
  CHECK(server.hub->match_count() == 1);
}

TEST_CASE("rematch: refused before the end, after the other left, and from outside the match") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  InProcessClient cat(server);
  ann.hello("Ann");
  ben.hello("Ben");
  cat.hello("Cat");
  const uint64_t id = start_match(ann, ben);
  CHECK(ann.request(offer(id)).result() == REMATCH_UNAVAILABLE);  // still in play
  finish(ann, id);
  CHECK(cat.request(offer(id)).result() == REMATCH_UNAVAILABLE);  // never sat there
  CHECK(cat.request(answer(id, true)).result() == REMATCH_UNAVAILABLE);
  CHECK(ann.request(answer(id, true)).result() == REMATCH_UNAVAILABLE);  // nothing offered
  ClientMessage leave;
  leave.mutable_leave_match()->set_match_id(id);
  REQUIRE(ben.request(leave).result() == OK);
  const ServerMessage refused = ann.request(offer(id));
  CHECK(refused.result() == REMATCH_UNAVAILABLE);
  CHECK(refused.reason() == "the other player left");
  CHECK_FALSE(pushed(ben, has_offer));
  CHECK(ann.request(offer(999)).result() == REMATCH_UNAVAILABLE);
}

TEST_CASE("rematch: an accept after the offerer left is refused and makes no match") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  const uint64_t id = start_match(ann, ben);
  finish(ann, id);
  REQUIRE(ann.request(offer(id)).result() == OK);
  REQUIRE(pushed(ben, has_offer));
  ClientMessage leave;
  leave.mutable_leave_match()->set_match_id(id);
  REQUIRE(ann.request(leave).result() == OK);
  CHECK(ben.request(answer(id, true)).result() == REMATCH_UNAVAILABLE);
  CHECK(server.hub->match_count() == 1);
}

TEST_CASE("rematch: a three-player match has no rematch") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  const ServerMessage created = ann.request(create_message(3, true, 2));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id) != nullptr; }));
  finish(ann, id);
  const ServerMessage refused = ann.request(offer(id));
  CHECK(refused.result() == REMATCH_UNAVAILABLE);
  CHECK(refused.reason() == "rematches are for two-player matches");
}
