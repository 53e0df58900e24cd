// Spectator counts in the lobby's listing and on the match (SpectatorCount pushes), the online
// list with presence, and the TV over HTTP (docs/pairing.md, "Challenges, presence and TV";
// issue 33).
#include "friends/friends_room.hpp"
#include "hall_fixture.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

uint32_t listed_spectators(InProcessClient& client, uint64_t match_id) {
  ClientMessage list;
  list.mutable_list_matches();
  const auto listed = client.request(list);
  for (const auto& info : listed.matches().matches()) {
    if (info.match_id() == match_id) return info.spectators();
  }
  FAIL("match " << match_id << " is not listed");
  return 0;
}

ClientMessage spectate_message(uint64_t match_id) {
  ClientMessage m;
  m.mutable_spectate()->set_match_id(match_id);
  return m;
}

// The spectator count last pushed to `client` for `match_id`, waiting for one to arrive.
std::optional<uint32_t> pushed_spectators(InProcessClient& client, uint64_t match_id) {
  auto push = next_push(client, ServerMessage::kSpectatorCount);
  if (!push) return std::nullopt;
  CHECK(push->spectator_count().match_id() == match_id);
  return push->spectator_count().spectators();
}

ClientMessage online_message(uint32_t limit) {
  ClientMessage m;
  m.mutable_list_online()->set_limit(limit);
  return m;
}

}  // namespace

TEST_CASE("hall: spectators are counted in the listing and pushed to the match as they come and go") {
  Hall hall;
  InProcessClient ann(hall.server), cid(hall.server), dee(hall.server);
  ann.hello("Ann");
  cid.hello("Cid");
  dee.hello("Dee");
  auto created = ann.request(create_message(2, true, 1));  // against the bot: in play at once
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  hall.server.pump(std::chrono::milliseconds(20));  // listings are published on the match's strand
  CHECK(listed_spectators(cid, id) == 0);

  REQUIRE(cid.request(spectate_message(id)).result() == OK);
  CHECK(pushed_spectators(ann, id) == 1u);
  REQUIRE(dee.request(spectate_message(id)).result() == OK);
  CHECK(pushed_spectators(ann, id) == 2u);
  CHECK(pushed_spectators(cid, id) == 2u);  // spectators are told too (of others' arrivals:
  CHECK_FALSE(next_push(dee, ServerMessage::kSpectatorCount));  // their own is in the snapshot)
  hall.server.pump(std::chrono::milliseconds(20));
  CHECK(listed_spectators(ann, id) == 2);

  ClientMessage leave;
  leave.mutable_leave_match()->set_match_id(id);
  REQUIRE(cid.request(leave).result() == OK);
  CHECK(pushed_spectators(ann, id) == 1u);
  dee.disconnect();
  CHECK(pushed_spectators(ann, id) == 0u);
  hall.server.pump(std::chrono::milliseconds(20));
  CHECK(listed_spectators(ann, id) == 0);
}

TEST_CASE("hall: the online list names signed-in accounts with their presence, bounded") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  const auto cid_token = hall.account("Cid");
  InProcessClient ann(hall.server), ben(hall.server), cid(hall.server), guest(hall.server);
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  sign_in(cid, cid_token);
  guest.hello("Guest");
  auto playing = ben.request(create_message(2, true, 1));
  REQUIRE(playing.result() == OK);
  hall.tick();

  auto all = guest.request(online_message(0));
  REQUIRE(all.result() == OK);
  REQUIRE(all.online().players_size() == 3);  // guests are not listed: they cannot be challenged
  CHECK(all.online().total() == 3);
  CHECK(all.online().players(0).name() == "Ann");
  CHECK(all.online().players(0).presence() == FollowedPlayer::ONLINE);
  CHECK(all.online().players(1).name() == "Ben");
  CHECK(all.online().players(1).presence() == FollowedPlayer::PLAYING);
  CHECK(all.online().players(1).match_id() == playing.created().match().match_id());
  CHECK(all.online().counts().players_online() == 4);

  auto two = ann.request(online_message(2));
  REQUIRE(two.online().players_size() == 2);
  CHECK(two.online().total() == 3);
  CHECK(ann.request(online_message(1'000'000)).online().players_size() == 3);

  cid.disconnect();
  auto after = ann.request(online_message(0));
  CHECK(after.online().players_size() == 2);
}

TEST_CASE("hall: GET /api/tv/<ruleset> names the featured match as JSON") {
  Hall hall;
  auto& friends = hall.server.hub->friends();
  CHECK_FALSE(friends.answer_tv_http("/api/leaderboard/x"));
  auto unknown = friends.answer_tv_http("/api/tv/no_such_game");
  REQUIRE(unknown);
  CHECK(unknown->status == 404);
  const std::string path = std::string("/api/tv/") + kTestRuleset;
  auto quiet = friends.answer_tv_http(path);
  REQUIRE(quiet);
  CHECK(quiet->status == 200);
  CHECK(quiet->body == std::string("{\"ruleset\":\"") + kTestRuleset + "\",\"match_id\":0}");

  InProcessClient ann(hall.server), cid(hall.server);
  ann.hello("Ann");
  cid.hello("Cid");
  auto created = ann.request(create_message(2, true, 1));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(cid.request(spectate_message(id)).result() == OK);
  hall.tick();
  auto featured = friends.answer_tv_http(path + "?x=1");
  REQUIRE(featured);
  CHECK(featured->status == 200);
  const std::string& body = featured->body;
  CHECK(body.find("\"match_id\":" + std::to_string(id)) != std::string::npos);
  CHECK(body.find("\"rated\":false") != std::string::npos);
  CHECK(body.find("\"spectators\":1") != std::string::npos);
  CHECK(body.find("\"players\":[\"Ann\",\"bot\"]") != std::string::npos);
}
