// Challenges by account name (docs/pairing.md, "Challenges"): accepted into one match with both
// seated, declined with a reason, expired, withdrawn, delivered at sign-in, and each refusal
// typed with nothing changed (issue 33).
#include "hall_fixture.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

MatchInfo listing_of(InProcessClient& client, uint64_t id) {
  ClientMessage list;
  list.mutable_list_matches();
  const ServerMessage reply = client.request(list);  // kept: the loop reads into it
  for (const auto& info : reply.matches().matches()) {
    if (info.match_id() == id) return info;
  }
  FAIL("match " << id << " is not listed");
  return {};
}

}  // namespace

TEST_CASE("hall: a challenge accepted makes the match with its settings, both seated") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient ann(hall.server), ben(hall.server);
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  auto sent = ann.request(challenge_message("Ben"));
  REQUIRE(sent.result() == OK);
  REQUIRE(sent.has_challenge_update());
  CHECK(sent.challenge_update().state() == ChallengeUpdate::PENDING);
  CHECK_FALSE(sent.challenge_update().incoming());
  CHECK(sent.challenge_update().challenge().to() == "Ben");
  CHECK(sent.challenge_update().challenge().expires_ms() == hall.now + 60'000);

  auto received = next_push(ben, ServerMessage::kChallengeUpdate);
  REQUIRE(received);
  CHECK(received->challenge_update().incoming());
  CHECK(received->challenge_update().challenge().from() == "Ann");
  const uint64_t id = received->challenge_update().challenge().challenge_id();

  auto accepted = ben.request(answer_message(id, true));
  REQUIRE(accepted.result() == OK);
  REQUIRE(accepted.has_joined());
  CHECK(accepted.joined().seat() == 1);
  auto told = next_push(ann, ServerMessage::kChallengeUpdate);
  REQUIRE(told);
  CHECK(told->challenge_update().state() == ChallengeUpdate::ACCEPTED);
  const uint64_t match_id = told->challenge_update().match_id();
  CHECK(match_id == accepted.joined().match().match_id());
  hall.tick();
  const MatchInfo info = listing_of(ann, match_id);
  CHECK(info.status() == PLAYING);
  CHECK(info.ruleset() == kTestRuleset);
  CHECK(info.seats(0).name() == "Ann");
  CHECK(info.seats(1).name() == "Ben");
  CHECK(info.settings().spectators_allowed());
  // Answered: a second answer finds nothing.
  CHECK(ben.request(answer_message(id, true)).result() == CHALLENGE_GONE);
}

TEST_CASE("hall: a challenge declined tells the challenger the reason, and no match is made") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient ann(hall.server), ben(hall.server);
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  const uint64_t id =
      ann.request(challenge_message("Ben")).challenge_update().challenge().challenge_id();
  auto declined = ben.request(answer_message(id, false, "off to dinner"));
  CHECK(declined.result() == OK);
  auto told = next_push(ann, ServerMessage::kChallengeUpdate);
  REQUIRE(told);
  CHECK(told->challenge_update().state() == ChallengeUpdate::DECLINED);
  CHECK(told->challenge_update().reason() == "off to dinner");
  CHECK(hall.server.hub->match_count() == 0);
  CHECK(ben.request(answer_message(id, true)).result() == CHALLENGE_GONE);
}

TEST_CASE("hall: a challenge expires, and accepting it after is refused CHALLENGE_GONE") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient ann(hall.server), ben(hall.server);
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  const uint64_t id =
      ann.request(challenge_message("Ben")).challenge_update().challenge().challenge_id();
  REQUIRE(next_push(ben, ServerMessage::kChallengeUpdate));
  hall.now += 60'000;  // not yet swept by a tick: the answer itself finds it expired
  CHECK(ben.request(answer_message(id, true)).result() == CHALLENGE_GONE);
  CHECK(hall.server.hub->match_count() == 0);
  hall.tick();
  auto to_ann = next_push(ann, ServerMessage::kChallengeUpdate);
  auto to_ben = next_push(ben, ServerMessage::kChallengeUpdate);
  REQUIRE(to_ann);
  REQUIRE(to_ben);
  CHECK(to_ann->challenge_update().state() == ChallengeUpdate::EXPIRED);
  CHECK(to_ben->challenge_update().state() == ChallengeUpdate::EXPIRED);
}

TEST_CASE("hall: a withdrawn challenge is told to its target and cannot be accepted") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient ann(hall.server), ben(hall.server);
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  const uint64_t id =
      ann.request(challenge_message("Ben")).challenge_update().challenge().challenge_id();
  REQUIRE(next_push(ben, ServerMessage::kChallengeUpdate));
  ClientMessage cancel;
  cancel.mutable_cancel_challenge()->set_challenge_id(id);
  CHECK(ben.request(cancel).result() == CHALLENGE_GONE);  // not the challenger's
  CHECK(ann.request(cancel).result() == OK);
  auto told = next_push(ben, ServerMessage::kChallengeUpdate);
  REQUIRE(told);
  CHECK(told->challenge_update().state() == ChallengeUpdate::WITHDRAWN);
  CHECK(ben.request(answer_message(id, true)).result() == CHALLENGE_GONE);
  CHECK(ann.request(cancel).result() == CHALLENGE_GONE);
}

TEST_CASE("hall: a challenge to an offline account waits its longer time and comes at sign-in") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient ann(hall.server);
  sign_in(ann, ann_token);
  auto sent = ann.request(challenge_message("Ben"));
  REQUIRE(sent.result() == OK);
  CHECK(sent.challenge_update().challenge().sent_offline());
  CHECK(sent.challenge_update().challenge().expires_ms() == hall.now + 3'600'000);
  hall.now += 30 * 60'000;  // half an hour: an online challenge would have expired
  hall.tick();
  CHECK_FALSE(next_push(ann, ServerMessage::kChallengeUpdate));
  InProcessClient ben(hall.server);
  sign_in(ben, ben_token);
  hall.tick();
  auto received = next_push(ben, ServerMessage::kChallengeUpdate);
  REQUIRE(received);
  CHECK(received->challenge_update().incoming());
  auto accepted =
      ben.request(answer_message(received->challenge_update().challenge().challenge_id(), true));
  CHECK(accepted.result() == OK);
  CHECK(accepted.has_joined());
}

TEST_CASE("hall: challenges refused: self, unknown, banned, ignored, guest, with nothing sent") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  hall.account("Cid");
  hall.account("Dee");
  InProcessClient ann(hall.server), ben(hall.server), guest(hall.server);
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  guest.hello("Visitor");
  CHECK(ann.request(challenge_message("Ann")).result() == CANNOT_CHALLENGE_SELF);
  CHECK(ann.request(challenge_message("ann")).result() == CANNOT_CHALLENGE_SELF);
  CHECK(ann.request(challenge_message("Nobody")).result() == UNKNOWN_ACCOUNT);
  hall.moderation.ban_account("mod", hall.view("Cid"), 0, "spam");
  CHECK(ann.request(challenge_message("Cid")).result() == TARGET_BANNED);
  hall.store.set_ignore(hall.view("Ben").id, hall.view("Ann").id, true);
  CHECK(ann.request(challenge_message("Ben")).result() == IGNORED_BY_TARGET);
  CHECK(guest.request(challenge_message("Ben")).result() == SIGN_IN_REQUIRED);
  auto bad = challenge_message("Dee");
  bad.mutable_challenge()->mutable_settings()->set_ruleset("chess960");
  CHECK(ann.request(bad).result() == UNKNOWN_RULESET);
  bad = challenge_message("Dee");
  bad.mutable_challenge()->mutable_settings()->set_seats(3);
  CHECK(ann.request(bad).result() == BAD_PARAMETERS);
  hall.tick();
  CHECK_FALSE(next_push(ben, ServerMessage::kChallengeUpdate));
  // Ben ignoring Ann does not stop Ben from challenging Ann.
  CHECK(ben.request(challenge_message("Ann")).result() == OK);
}

TEST_CASE("hall: challenges are rate-limited per account and one waits per target") {
  server::Config config = hall_config();
  config.challenges_per_minute = 3;
  config.max_pending_challenges = 10;
  Hall hall(config);
  const auto ann_token = hall.account("Ann");
  for (const char* name : {"Bob1", "Bob2", "Bob3", "Bob4"}) hall.account(name);
  InProcessClient ann(hall.server);
  sign_in(ann, ann_token);
  CHECK(ann.request(challenge_message("Bob1")).result() == OK);
  CHECK(ann.request(challenge_message("Bob1")).result() == LIMIT_REACHED);  // one waits already
  CHECK(ann.request(challenge_message("Bob2")).result() == OK);
  CHECK(ann.request(challenge_message("Bob3")).result() == OK);
  auto limited = ann.request(challenge_message("Bob4"));
  CHECK(limited.result() == RATE_LIMITED);
  CHECK_FALSE(limited.has_challenge_update());
  hall.now += 60'001;
  CHECK(ann.request(challenge_message("Bob4")).result() == OK);
}
