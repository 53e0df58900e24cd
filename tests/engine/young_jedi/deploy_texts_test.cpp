// Rulings Y29 (text that acts when a card deploys to the duel's planet) and Y30 (a DAMAGE 0
// character simply discarded is not defeated).
#include "scenario.hpp"

using namespace yj_test;

namespace {

// Dark's deploy step on `planet`, with `hand` in Dark's hand and the draw decks given.
std::unique_ptr<YoungJediState> dark_deploys(int planet, std::vector<uint16_t> hand, int light_deck,
                                             int dark_deck = 10) {
  auto s = duel_position(1, {}, {}, copies(light_deck, "1_2"), copies(dark_deck, "1_71"));
  Table& t = s->scenario_table();
  t.planet = planet;
  t.phase = Phase::kDeploy;
  t.counters_left = kDeployCounters;
  t.players[1].hand = std::move(hand);
  return s;
}

}  // namespace

TEST_CASE("Y29: Darth Sidious deploying to Coruscant makes the opponent take 2 DAMAGE") {
  for (const char* sidious : {"6_P14", "7_48"}) {
    INFO(sidious);
    auto s = dark_deploys(kCoruscant, cards({sidious}), 10);
    apply_ok(*s, 1, card_act(ActionKind::kDeploy, sidious));
    CHECK(s->table().players[0].draw.size() == 8);
    CHECK(s->table().players[0].discard.size() == 2);
    CHECK(s->table().phase == Phase::kDeploy);
    CHECK(s->table().counters_left == kDeployCounters - 4);
  }
}

TEST_CASE("Y29: Darth Sidious's 2 DAMAGE that empties the draw deck is a deck victory") {
  auto s = dark_deploys(kCoruscant, cards({"6_P14"}), 2);
  apply_ok(*s, 1, card_act(ActionKind::kDeploy, "6_P14"));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->outcome().reason == "deck victory");
}

TEST_CASE("Y29: text naming another planet than the duel's does nothing") {
  auto s = dark_deploys(kTatooine, cards({"6_P14", "Baskol Yeesrim, Gran Senator"}), 10);
  apply_ok(*s, 1, card_act(ActionKind::kDeploy, "6_P14"));
  apply_ok(*s, 1, card_act(ActionKind::kDeploy, "Baskol Yeesrim, Gran Senator"));
  CHECK(s->table().players[0].draw.size() == 10);
  CHECK(s->table().phase == Phase::kDeploy);
  CHECK(s->table().players[1].hand.empty());
}

TEST_CASE("Y29: Baskol Yeesrim deploying to Coruscant offers his player a draw") {
  auto s = dark_deploys(kCoruscant, cards({"Baskol Yeesrim, Gran Senator"}), 10);
  apply_ok(*s, 1, card_act(ActionKind::kDeploy, "Baskol Yeesrim, Gran Senator"));
  REQUIRE(s->table().phase == Phase::kOptionalDraw);
  CHECK(s->pending() == SeatMask::only(1));
  SECTION("taken: one card, then the deploy step goes on") {
    apply_ok(*s, 1, act(ActionKind::kDrawCard));
    CHECK(s->table().players[1].hand.size() == 1);
    CHECK(s->table().players[1].draw.size() == 9);
  }
  SECTION("declined: no card, and the deploy step goes on") {
    apply_ok(*s, 1, act(ActionKind::kDeclineDraw));
    CHECK(s->table().players[1].hand.empty());
    CHECK(s->table().players[1].draw.size() == 10);
  }
  CHECK(s->table().phase == Phase::kDeploy);
  CHECK(s->pending() == SeatMask::only(1));
  CHECK(s->table().counters_left == kDeployCounters - 2);
  CHECK(legal(*s, 1, act(ActionKind::kEndDeploy)));
}

TEST_CASE("Y30: a DAMAGE 0 character simply discarded is not defeated: Aurra Sing draws nothing") {
  // Aurra Sing, Formidable Adversary ("when she defeats a character, you may draw a card")
  // challenges R2-D2, Astromech Droid (DAMAGE 0), who is simply discarded (seed 003).
  auto s = duel_position(
      1, cards({"R2-D2, Astromech Droid"}),
      cards({"Aurra Sing, Formidable Adversary", "Jedi Lightsaber, Stolen by Aurra Sing"}),
      copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(s->table().players[0].in_play.empty());
  CHECK(s->table().players[0].discard.size() == 1);
  CHECK(s->table().phase != Phase::kOptionalDraw);  // no draw offered for a discard
  CHECK(s->table().players[1].hand.size() == 1);    // only Dark's own draw step
  CHECK(s->table().phase == Phase::kDeploy);
  CHECK(s->table().active == 0);
}
