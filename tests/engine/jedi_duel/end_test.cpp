// The end of the game (J15, J28, J31): the last player with fatigue, and the pass-count ending.
#include "table.hpp"

using namespace jedi_test;

TEST_CASE("J15 the last player with fatigue wins at once") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);
  setup.seats[1].fatigue = 3;
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  t.act(1, Action::make(kNoDefence));
  REQUIRE(t.s->terminal());
  CHECK(t.s->outcome().winners == SeatMask::only(0));
  CHECK_FALSE(t.s->outcome().draw());
  CHECK(t.s->pending().empty());
  CHECK(t.try_act(0, Action::make(kPassAction)).code == RefusalCode::kMatchOver);
}

namespace {
Table pass_ending(int seat1_fatigue) {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[0].fatigue = 14;  // the top of its column: the discard regains nothing
  setup.seats[1].stance = S(9);
  setup.seats[1].hand = {S(3)};
  setup.seats[1].fatigue = seat1_fatigue;
  everything_else_discarded(setup);
  setup.passes = 1;
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kDiscard, H(2)));  // the draw reshuffles: the second pass of two
  return t;
}
}  // namespace

TEST_CASE("J15 the pass-count ending with a tie shares a draw") {
  Table t = pass_ending(14);
  REQUIRE(t.s->terminal());
  CHECK(t.s->passes() == 2);
  const Outcome outcome = t.s->outcome();
  CHECK(outcome.winners.bits() == 0b11);
  CHECK(outcome.draw());
  CHECK(outcome.scores == std::vector<int32_t>{14, 14});
  CHECK(outcome.reason.find("tied") != std::string::npos);
}

TEST_CASE("J15 the pass-count ending: most fatigue wins") {
  Table t = pass_ending(13);
  REQUIRE(t.s->terminal());
  CHECK(t.s->outcome().winners == SeatMask::only(0));
}

TEST_CASE("J31 the number of passes counts every player who started, fallen ones included") {
  // Three started, seat 2 has fallen: two living players. The second pass does not end the game
  // (a count of the living would), the third does.
  for (const int before : {1, 2}) {
    TableSetup setup;
    setup.seats.resize(3);
    setup.seats[0].stance = H(8);
    setup.seats[0].hand = {H(2)};
    setup.seats[0].fatigue = 14;  // the top of its column: the discard regains nothing
    setup.seats[1].stance = S(9);
    setup.seats[1].hand = {S(3)};
    setup.seats[1].fatigue = 13;
    setup.seats[2].out = true;
    setup.seats[2].fatigue = 0;
    everything_else_discarded(setup);
    setup.passes = before;
    setup.skip_stance_step = true;
    Table t = make_table(3, setup);
    t.act(0, Action::make(kDiscard, H(2)));  // the draw reshuffles: one more pass
    CHECK(t.s->passes() == before + 1);
    if (before == 1) {
      CHECK_FALSE(t.s->terminal());
      CHECK(t.s->turn() == 1);
    } else {
      REQUIRE(t.s->terminal());
      CHECK(t.s->outcome().winners == SeatMask::only(0));
    }
  }
}

TEST_CASE("J28 the pass-count end waits for the defenders' replacement draws") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);
  setup.seats[1].hand = {C(9)};
  setup.seats[1].fatigue = 15;
  setup.deck_from_top = {D(2), D(3)};  // the attacker's draw empties the deck
  everything_else_discarded(setup);
  setup.passes = 1;
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  t.act(1, Action::make(kClubDefence, C(9)));  // 9 - 3 = 6 damage
  REQUIRE(t.s->terminal());
  CHECK(t.s->passes() == 2);  // the replacement draw refilled the deck
  CHECK(t.player(1).hand.size() == 1);
  CHECK(t.s->outcome().winners == SeatMask::only(0));
}
