// Matches driven in-process: play with bots and humans, refusals, faults, reconnects, clocks
// and seats (spectators: spectator_test.cpp).
#include <catch2/catch.hpp>

#include "dispatch/match_play.hpp"
#include "support/in_process.hpp"
#include "wire_diff.hpp"

using namespace duelhall;
using duelhall::testing::action;
using duelhall::testing::create;
using duelhall::testing::create_message;
using duelhall::testing::has_event_containing;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using duelhall::testing::play_out;
using duelhall::testing::wait_started;

TEST_CASE("a human plays a bot to the end, following its view through diffs") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  const uint64_t id = create(ann, create_message(2, true, 1));
  wait_started(ann, id);
  play_out(ann, id);
  const auto* t = ann.tracker.find(id);
  CHECK(t->status == FINISHED);
  CHECK(t->outcome.reason() == "highest total");
  CHECK(t->outcome.scores_size() == 2);
  CHECK(t->seq >= 4);
  // Ann's own draws are shown to her, the bot's are redacted.
  CHECK(has_event_containing(*t, "@0 drew "));
  CHECK(has_event_containing(*t, "@1 drew a card"));
  // The tracked view is exactly what a resync returns.
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  auto snap = ann.request(resync);
  REQUIRE(snap.has_snapshot());
  CHECK(snap.snapshot().view() == t->view);
  CHECK(snap.snapshot().seq() == t->seq);
}

TEST_CASE("two humans play each other, out-of-turn and illegal actions are refused") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  const uint64_t id = create(ann, create_message(2, true, 0));
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(ben.request(join).result() == OK);
  wait_started(ann, id);
  wait_started(ben, id);
  // Seat 0 moves first in the test ruleset.
  REQUIRE_FALSE(ann.tracker.find(id)->legal.empty());
  CHECK(ben.tracker.find(id)->legal.empty());
  const uint64_t legal = ann.tracker.find(id)->legal.front().code();
  const std::string before = ann.tracker.find(id)->view;

  auto out_of_turn = ben.request(action(id, legal));
  CHECK(out_of_turn.result() == NOT_YOUR_DECISION);
  CHECK_FALSE(out_of_turn.reason().empty());
  auto illegal = ann.request(action(id, 1 | (uint64_t{99} << 8)));
  CHECK(illegal.result() == ILLEGAL_ACTION);
  auto stale = ann.request(action(id, legal, 41));
  CHECK(stale.result() == STALE_SEQ);
  // Nothing changed: no update went out, the view is the same.
  ann.wait_until([] { return false; }, std::chrono::milliseconds(20));
  CHECK(ann.tracker.find(id)->seq == 0);
  CHECK(ann.tracker.find(id)->view == before);

  InProcessClient stranger(server);
  stranger.hello("Cat");
  CHECK(stranger.request(action(id, legal)).result() == NOT_IN_MATCH);
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  REQUIRE(stranger.request(spectate).result() == OK);
  CHECK(stranger.request(action(id, legal)).result() == NOT_ALLOWED_FOR_SPECTATORS);

  // Alternate until the end.
  for (int guard = 0; guard < 100; ++guard) {
    auto* ta = ann.tracker.find(id);
    auto* tb = ben.tracker.find(id);
    if (ta->ended && tb->ended) break;
    InProcessClient& mover = ta->legal.empty() ? ben : ann;
    auto* tm = mover.tracker.find(id);
    if (tm->legal.empty()) {
      mover.wait_until([&] { return !tm->legal.empty() || tm->ended; });
      continue;
    }
    const uint64_t seq = tm->seq;
    REQUIRE(mover.request(action(id, tm->legal.back().code(), seq)).result() == OK);
    REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->seq > seq; }));
    REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq > seq; }));
  }
  CHECK(ann.tracker.find(id)->ended);
  CHECK(ben.tracker.find(id)->ended);
  CHECK(ann.request(action(id, legal)).result() == MATCH_OVER);
  // The spectator followed the public view to the same end.
  REQUIRE(stranger.wait_until([&] { return stranger.tracker.find(id)->ended; }));
  CHECK_FALSE(stranger.tracker.find(id)->broken);
}

TEST_CASE("an engine fault ends that match only, with INTERNAL_ERROR and ABORTED") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto faulty = create_message(2, true, 0);
  (*faulty.mutable_create_match()->mutable_settings()->mutable_params())["explode_at"] = "2";
  auto healthy = create_message(2, true, 1);
  const uint64_t bad_id = create(ann, faulty);
  InProcessClient ben(server);
  ben.hello("Ben");
  ClientMessage join;
  join.mutable_join_match()->set_match_id(bad_id);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(ben.request(join).result() == OK);
  wait_started(ann, bad_id);
  const uint64_t good_id = create(ben, healthy);
  wait_started(ben, good_id);
  // The first action is taken; the second (the history's second step) throws.
  uint64_t code = ann.tracker.find(bad_id)->legal.front().code();
  REQUIRE(ann.request(action(bad_id, code)).result() == OK);
  REQUIRE(ben.wait_until([&] { return !ben.tracker.find(bad_id)->legal.empty(); }));
  code = ben.tracker.find(bad_id)->legal.front().code();
  auto faulted = ben.request(action(bad_id, code));
  CHECK(faulted.result() == INTERNAL_ERROR);
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(bad_id)->ended; }));
  CHECK(ann.tracker.find(bad_id)->status == ABORTED);
  // The other match plays on to its end.
  play_out(ben, good_id);
  CHECK(ben.tracker.find(good_id)->status == FINISHED);
}

TEST_CASE("a reconnecting player gets the updates it missed and exactly its view") {
  InProcessServer server;
  InProcessClient ann(server);
  auto welcome = ann.hello("Ann");
  const std::string token = welcome.welcome().resume_token();
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(150);
  const uint64_t id = create(ann, m);
  wait_started(ann, id);
  // Ann acts, then drops before the bot (which waits 150 ms) replies.
  const uint64_t seq = ann.tracker.find(id)->seq;
  REQUIRE(ann.request(action(id, ann.tracker.find(id)->legal.front().code(), seq)).result() == OK);
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  watcher.request(spectate);
  ann.disconnect();
  const client::TrackedMatch kept = *ann.tracker.find(id);
  // The bot moves while Ann is away; seat 0 shows as disconnected.
  REQUIRE(watcher.wait_until([&] {
    for (const auto& msg : watcher.inbox) {
      if (msg.has_presence() && !msg.presence().connected()) return true;
    }
    return false;
  }));
  REQUIRE(watcher.wait_until([&] { return watcher.tracker.find(id)->seq > kept.seq; }));

  InProcessClient again(server);
  again.tracker = ann.tracker;
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(1);
  hello.mutable_hello()->set_resume_token(token);
  auto* cursor = hello.mutable_hello()->add_cursors();
  cursor->set_match_id(id);
  cursor->set_seq(kept.seq);
  auto resumed = again.request(hello);
  REQUIRE(resumed.result() == OK);
  CHECK(resumed.welcome().resumed());
  REQUIRE(resumed.welcome().matches_size() == 1);
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  auto snap = again.request(resync);
  const auto* t = again.tracker.find(id);
  CHECK_FALSE(t->broken);
  CHECK(t->seq > kept.seq);  // it received the bot's move through held updates
  CHECK(snap.snapshot().seq() == t->seq);
  CHECK(snap.snapshot().view() == t->view);
  REQUIRE(watcher.wait_until([&] {
    for (const auto& msg : watcher.inbox) {
      if (msg.has_presence() && msg.presence().connected()) return true;
    }
    return false;
  }));
}

TEST_CASE("after the grace period a dropped player's seat goes to the bot") {
  server::Config config;
  config.grace_seconds = 0;
  InProcessServer server(config);
  InProcessClient ann(server);
  ann.hello("Ann");
  const uint64_t id = create(ann, create_message(2, true, 1));
  wait_started(ann, id);
  InProcessClient watcher(server);
  watcher.hello("Wat");
  ClientMessage spectate;
  spectate.mutable_spectate()->set_match_id(id);
  watcher.request(spectate);
  ann.disconnect();
  REQUIRE(watcher.wait_until([&] {
    auto* t = watcher.tracker.find(id);
    return t && t->ended;
  }));
  CHECK(watcher.tracker.find(id)->status == FINISHED);
}

TEST_CASE("a decision clock that runs out forfeits the seat when the host chose so") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_clock_seconds(1);
  m.mutable_create_match()->mutable_settings()->set_clock_policy(CLOCK_FORFEIT);
  const uint64_t id = create(ann, m);
  const auto& t = wait_started(ann, id);
  CHECK(t.legal.size() > 0);
  REQUIRE(
      ann.wait_until([&] { return ann.tracker.find(id)->ended; }, std::chrono::milliseconds(3000)));
  const auto* done = ann.tracker.find(id);
  CHECK(done->status == FINISHED);
  REQUIRE(done->outcome.winners_size() == 1);
  CHECK(done->outcome.winners(0) == 1);
  CHECK(done->outcome.reason().find("ran out of time") != std::string::npos);
}

TEST_CASE("a decision clock that runs out lets the bot move when the host chose so") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_clock_seconds(1);
  m.mutable_create_match()->mutable_settings()->set_clock_policy(CLOCK_BOT_MOVES);
  const uint64_t id = create(ann, m);
  wait_started(ann, id);
  // Ann never acts; the bot plays both seats' turns as clocks run out, to the end.
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->seq >= 2; },
                         std::chrono::milliseconds(3000)));
  CHECK(ann.tracker.find(id)->status == PLAYING);
}

TEST_CASE("leaving a waiting match frees the seat, the last human leaving removes it") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  const uint64_t id = create(ann, create_message(3, true, 0));
  InProcessClient ben(server);
  ben.hello("Ben");
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(-1);
  REQUIRE(ben.request(join).result() == OK);
  CHECK(ben.request(join).result() == ALREADY_SEATED);
  ClientMessage leave;
  leave.mutable_leave_match()->set_match_id(id);
  REQUIRE(ben.request(leave).result() == OK);
  ClientMessage list;
  list.mutable_list_matches();
  auto listed = ann.request(list);
  REQUIRE(listed.matches().matches_size() == 1);
  CHECK(listed.matches().matches(0).seats(1).occupant() == SeatInfo::EMPTY);
  REQUIRE(ann.request(leave).result() == OK);
  ann.wait_until([] { return false; }, std::chrono::milliseconds(20));
  CHECK(ann.request(list).matches().matches_size() == 0);
}

TEST_CASE("fill with bots is for the host only and starts the match") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  const uint64_t id = create(ann, create_message(3, true, 0));
  InProcessClient ben(server);
  ben.hello("Ben");
  ClientMessage fill;
  fill.mutable_fill_with_bots()->set_match_id(id);
  CHECK(ben.request(fill).result() == NOT_HOST);
  CHECK(ann.request(fill).result() == OK);
  wait_started(ann, id);
  play_out(ann, id);
  CHECK(ann.tracker.find(id)->outcome.scores_size() == 3);
}

TEST_CASE("seat options are checked alone on joining and together when the last seat fills") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  auto m = create_message(2, true, 0);
  m.mutable_create_match()->set_seat_option("purple");
  CHECK(ann.request(m).result() == BAD_PARAMETERS);
  m.mutable_create_match()->set_seat_option("red");
  const uint64_t id = create(ann, m);
  InProcessClient ben(server);
  ben.hello("Ben");
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(1);
  join.mutable_join_match()->set_seat_option("red");
  auto clash = ben.request(join);
  CHECK(clash.result() == BAD_PARAMETERS);
  CHECK(clash.reason() == "two seats bring red");
  join.mutable_join_match()->set_seat_option("blue");
  CHECK(ben.request(join).result() == OK);
  wait_started(ben, id);
  CHECK(ben.tracker.find(id)->status == PLAYING);
}
