// The TV (docs/pairing.md, "TV"): per ruleset the highest-rated rated match in play, else the
// longest-running one, kept while it plays and switched when it ends (issue 33).
#include "friends/tv_choice.hpp"
#include "hall_fixture.hpp"

using namespace duelhall;
using namespace duelhall::testing;
using server::choose_feature;
using server::TvCandidate;

TEST_CASE("hall: the TV rule: rated highest first, else longest-running, kept until it ends") {
  const std::vector<TvCandidate> casual = {{7, false, 0, 2'000}, {5, false, 0, 1'000},
                                           {9, false, 0, 1'000}};
  CHECK(choose_feature(casual, 0) == 5);  // the longest-running; ties go to the lower id
  std::vector<TvCandidate> mixed = casual;
  mixed.push_back({11, true, 1'650, 3'000});
  mixed.push_back({12, true, 1'800, 4'000});
  CHECK(choose_feature(mixed, 0) == 12);   // rated beats casual, the higher rating first
  CHECK(choose_feature(mixed, 7) == 7);    // the featured match stays while it plays
  CHECK(choose_feature(mixed, 99) == 12);  // ... and is replaced once it is gone
  CHECK(choose_feature({}, 5) == 0);
}

namespace {

ClientMessage tv_message(bool subscribe) {
  ClientMessage m;
  m.mutable_get_tv()->set_ruleset(kTestRuleset);
  m.mutable_get_tv()->set_subscribe(subscribe);
  return m;
}

ClientMessage resign_message(uint64_t id) {
  ClientMessage m;
  m.mutable_resign()->set_match_id(id);
  return m;
}

}  // namespace

TEST_CASE("hall: the TV features a rated match over a longer casual one and switches at its end") {
  Hall hall;
  const auto ann_token = hall.account("Ann");
  const auto ben_token = hall.account("Ben");
  InProcessClient viewer(hall.server), casual(hall.server), ann(hall.server), ben(hall.server);
  viewer.hello("Viewer");
  auto empty = viewer.request(tv_message(true));
  REQUIRE(empty.result() == OK);
  CHECK(empty.tv().match_id() == 0);

  casual.hello("Cas");
  auto first = casual.request(create_message(2, true, 1));
  REQUIRE(first.result() == OK);
  const uint64_t casual_id = first.created().match().match_id();
  hall.tick();
  auto featured = next_push(viewer, ServerMessage::kTv);
  REQUIRE(featured);
  CHECK(featured->tv().match_id() == casual_id);
  CHECK_FALSE(featured->tv().rated());

  // A rated match starting later does not take over while the featured one plays...
  sign_in(ann, ann_token);
  sign_in(ben, ben_token);
  auto rated = create_message(2, true, 0);
  rated.mutable_create_match()->mutable_settings()->set_rated(true);
  auto created = ann.request(rated);
  REQUIRE(created.result() == OK);
  const uint64_t rated_id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(rated_id);
  join.mutable_join_match()->set_seat(-1);
  REQUIRE(ben.request(join).result() == OK);
  hall.now += 1'000;
  hall.tick();
  CHECK_FALSE(next_push(viewer, ServerMessage::kTv));
  // ... but a new viewer is shown the same one, and when it ends the rated one comes on.
  CHECK(viewer.request(tv_message(true)).tv().match_id() == casual_id);
  REQUIRE(casual.request(resign_message(casual_id)).result() == OK);
  hall.tick();
  auto switched = next_push(viewer, ServerMessage::kTv);
  REQUIRE(switched);
  CHECK(switched->tv().match_id() == rated_id);
  CHECK(switched->tv().rated());
  CHECK(switched->tv().rating() == Approx(1500.0));

  CHECK(viewer.request(tv_message(false)).result() == OK);  // no more pushes
  REQUIRE(ann.request(resign_message(rated_id)).result() == OK);
  hall.tick();
  CHECK_FALSE(next_push(viewer, ServerMessage::kTv));
  ClientMessage unknown = tv_message(false);
  unknown.mutable_get_tv()->set_ruleset("chess960");
  CHECK(viewer.request(unknown).result() == UNKNOWN_RULESET);
}
