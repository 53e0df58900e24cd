// Follows and presence (docs/pairing.md, "Follow and presence"): a followed account seen
// offline, online, playing (with the match to watch) and offline again, pushed as it changes;
// the refusals; the lobby's counts (issue 33).
#include "hall_fixture.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage follow_message(const std::string& name, bool on = true) {
  ClientMessage m;
  if (on) {
    m.mutable_follow()->set_name(name);
  } else {
    m.mutable_unfollow()->set_name(name);
  }
  return m;
}

FollowedPlayer only_followed(const ServerMessage& m) {
  REQUIRE(m.has_followed());
  REQUIRE(m.followed().players_size() == 1);
  return m.followed().players(0);
}

}  // namespace

TEST_CASE("hall: a followed account's presence goes offline, online, playing, offline") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient ann(hall.server);
  sign_in(ann, ann_token);
  auto followed = ann.request(follow_message("Ben"));
  REQUIRE(followed.result() == OK);
  CHECK(only_followed(followed).name() == "Ben");
  CHECK(only_followed(followed).presence() == FollowedPlayer::OFFLINE);
  hall.tick();
  CHECK_FALSE(next_push(ann, ServerMessage::kFollowed));  // nothing changed

  InProcessClient ben(hall.server);
  sign_in(ben, ben_token);
  hall.tick();
  auto online = next_push(ann, ServerMessage::kFollowed);
  REQUIRE(online);
  CHECK(only_followed(*online).presence() == FollowedPlayer::ONLINE);

  auto created = ben.request(create_message(2, true, 1));  // against the bot: in play at once
  REQUIRE(created.result() == OK);
  hall.tick();
  auto playing = next_push(ann, ServerMessage::kFollowed);
  REQUIRE(playing);
  CHECK(only_followed(*playing).presence() == FollowedPlayer::PLAYING);
  CHECK(only_followed(*playing).match_id() == created.created().match().match_id());

  ben.disconnect();
  hall.tick();
  auto offline = next_push(ann, ServerMessage::kFollowed);
  REQUIRE(offline);
  CHECK(only_followed(*offline).presence() == FollowedPlayer::OFFLINE);
}

TEST_CASE("hall: follows are kept with the account and read again at the next sign-in") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  hall.account("Ben");
  hall.account("Cid");
  {
    InProcessClient ann(hall.server);
    sign_in(ann, ann_token);
    REQUIRE(ann.request(follow_message("Ben")).result() == OK);
    REQUIRE(ann.request(follow_message("Cid")).result() == OK);
    auto after = ann.request(follow_message("Ben", false));
    REQUIRE(after.result() == OK);
    REQUIRE(after.followed().players_size() == 1);
    ann.disconnect();
  }
  hall.tick();  // Ann gone: the room forgets her list
  InProcessClient again(hall.server);
  sign_in(again, ann_token);
  ClientMessage get;
  get.mutable_get_followed();
  auto list = again.request(get);
  REQUIRE(list.result() == OK);
  REQUIRE(list.followed().players_size() == 1);
  CHECK(list.followed().players(0).name() == "Cid");
  CHECK(hall.store.follows(hall.view("Ann").id) ==
        std::vector<storage::AccountId>{hall.view("Cid").id});
}

TEST_CASE("hall: following oneself, an unknown account or as a guest is refused") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  InProcessClient ann(hall.server), guest(hall.server);
  sign_in(ann, ann_token);
  guest.hello("Visitor");
  CHECK(ann.request(follow_message("Ann")).result() == CANNOT_CHALLENGE_SELF);
  CHECK(ann.request(follow_message("Nobody")).result() == UNKNOWN_ACCOUNT);
  CHECK(guest.request(follow_message("Ann")).result() == SIGN_IN_REQUIRED);
  CHECK(hall.store.follows(hall.view("Ann").id).empty());
}

TEST_CASE("hall: lobby subscribers are told how many are online and how many matches play") {
  Hall hall;
  InProcessClient ann(hall.server), ben(hall.server);
  ann.hello("Ann");
  ClientMessage subscribe;
  subscribe.mutable_subscribe_lobby()->set_subscribe(true);
  REQUIRE(ann.request(subscribe).result() == OK);
  hall.tick();
  auto first = next_push(ann, ServerMessage::kHallCounts);
  REQUIRE(first);
  CHECK(first->hall_counts().players_online() == 1);
  CHECK(first->hall_counts().matches_in_play() == 0);
  hall.tick();
  CHECK_FALSE(next_push(ann, ServerMessage::kHallCounts));  // unchanged: not told again
  ben.hello("Ben");
  REQUIRE(ben.request(create_message(2, true, 1)).result() == OK);
  hall.tick();
  auto second = next_push(ann, ServerMessage::kHallCounts);
  REQUIRE(second);
  CHECK(second->hall_counts().players_online() == 2);
  CHECK(second->hall_counts().matches_in_play() == 1);
}
