// Spectators of matches driven in-process: the public view, its delay in actions and in
// seconds, chat, and refusal when the host allows none.
#include <catch2/catch.hpp>

#include "dispatch/match_play.hpp"
#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::action;
using duelhall::testing::create;
using duelhall::testing::create_message;
using duelhall::testing::has_event_containing;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using duelhall::testing::play_out;
using duelhall::testing::wait_started;

TEST_CASE("spectators see the public view, delayed by the host's number of actions") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_spectator_delay_actions(2);
  const uint64_t id = create(ann, m);
  wait_started(ann, id);
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  auto snap = watcher.request(spectate);
  REQUIRE(snap.result() == OK);
  CHECK(snap.snapshot().seat() == -1);
  CHECK(snap.snapshot().legal_size() == 0);
  CHECK(snap.snapshot().match().spectators() == 1);
  // One action by Ann and one by the bot: the spectator stays behind by two.
  const uint64_t seq = ann.tracker.find(id)->seq;
  REQUIRE(ann.request(action(id, ann.tracker.find(id)->legal.front().code(), seq)).result() == OK);
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->seq >= 2; }));
  watcher.wait_until([] { return false; }, std::chrono::milliseconds(20));
  CHECK(watcher.tracker.find(id)->seq == 0);
  play_out(ann, id);
  // At the end the delayed steps are released and the spectator reaches the end.
  REQUIRE(watcher.wait_until([&] { return watcher.tracker.find(id)->ended; }));
  const auto* t = watcher.tracker.find(id);
  CHECK_FALSE(t->broken);
  CHECK(t->seq == ann.tracker.find(id)->seq);
  CHECK_FALSE(has_event_containing(*t, " drew 1"));  // draws are redacted for spectators
  CHECK(has_event_containing(*t, "drew a card"));
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  CHECK(watcher.request(resync).snapshot().view() == t->view);
}

TEST_CASE("match chat reaches spectators only when the host allows it") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  const uint64_t id = create(ann, create_message(2, true, 0));
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  REQUIRE(watcher.request(spectate).result() == OK);
  ClientMessage chat;
  chat.mutable_chat()->set_match_id(id);
  chat.mutable_chat()->set_text("good luck");
  CHECK(watcher.request(chat).result() == CHAT_NOT_ALLOWED);
  CHECK(ann.request(chat).result() == OK);
  REQUIRE(ann.wait_until([&] {
    for (const auto& m : ann.inbox) {
      if (m.has_chat() && m.chat().text() == "good luck" && m.chat().seat() == 0) return true;
    }
    return false;
  }));
  watcher.wait_until([] { return false; }, std::chrono::milliseconds(20));
  for (const auto& m : watcher.inbox) CHECK_FALSE(m.has_chat());
}

TEST_CASE("spectators are refused when the host does not allow them") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 0);
  m.mutable_create_match()->mutable_settings()->set_spectators_allowed(false);
  const uint64_t id = create(ann, m);
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  CHECK(watcher.request(spectate).result() == SPECTATORS_NOT_ALLOWED);
}

TEST_CASE("a spectator delay in seconds holds each step back that long") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_spectator_delay_seconds(1);
  m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(5000);  // the bot stays put
  const uint64_t id = create(ann, m);
  wait_started(ann, id);
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  REQUIRE(watcher.request(spectate).result() == OK);
  const auto acted = std::chrono::steady_clock::now();
  REQUIRE(ann.request(action(id, ann.tracker.find(id)->legal.front().code(), 0)).result() == OK);
  watcher.wait_until([] { return false; }, std::chrono::milliseconds(300));
  CHECK(watcher.tracker.find(id)->seq == 0);
  REQUIRE(watcher.wait_until([&] { return watcher.tracker.find(id)->seq == 1; },
                             std::chrono::milliseconds(3000)));
  CHECK(std::chrono::steady_clock::now() - acted >= std::chrono::milliseconds(900));
  CHECK_FALSE(watcher.tracker.find(id)->broken);
}
