// Force powers, Lightning and Jokers: seed "Force Power", "Force Lightning", "Jokers",
// rulings J3, J10-J12, J18, J24, J26, J27.
#include "table.hpp"

using namespace jedi_test;

TEST_CASE("J10 Force Heal moves fatigue to the top of its column, in any Stance") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = D(8);
  setup.seats[0].hand = {D(11), H(11)};
  setup.seats[0].fatigue = 9;
  setup.seats[1].stance = S(9);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  CHECK_FALSE(t.legal(0, Action::make(kForceHeal, H(11))));  // not the Stance's suit
  t.act(0, Action::make(kForceHeal, D(11)));
  CHECK(t.player(0).fatigue == 14);
}

TEST_CASE("J26 Force Heal works from any Stance, High included") {
  struct Case {
    Card stance;
    Area area;   // declared, for a club Stance
    Card jack;   // the Jack of the Stance's suit
    Card other;  // a Jack of another suit
  };
  const Case cases[] = {
      {D(8), kNoArea, D(11), H(11)},
      {H(8), kNoArea, H(11), S(11)},
      {S(8), kNoArea, S(11), D(11)},
      {C(8), kHigh, D(11), H(11)},  // a club declared High is High for every rule (J3)
  };
  for (const Case& c : cases) {
    INFO("Stance " << card_name(c.stance));
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = c.stance;
    setup.seats[0].area = c.area;
    setup.seats[0].hand = {c.jack, C(11), c.other};
    setup.seats[0].fatigue = 16;
    setup.seats[1].stance = D(9);  // the opponent's Stance does not matter: Heal has no target
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    CHECK(t.legal(0, Action::make(kForceHeal, c.jack)));
    CHECK(t.legal(0, Action::make(kForceHeal, C(11))));
    CHECK_FALSE(t.legal(0, Action::make(kForceHeal, c.other)));
    t.act(0, Action::make(kForceHeal, c.jack));
    CHECK(t.player(0).fatigue == 21);
  }
}

TEST_CASE("J3 a club Stance counts as its declared suit for Force powers") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].hand = {C(5), S(11), H(11), C(11)};
  setup.seats[0].fatigue = 3;
  setup.seats[1].stance = S(9);
  Table t = make_table(2, setup);
  CHECK(t.legal(0, Action::make(kStance, C(5), kHigh)));
  CHECK(t.legal(0, Action::make(kStance, C(5), kMiddle)));
  CHECK_FALSE(t.legal(0, Action::make(kStance, C(5))));  // a club must be declared
  t.act(0, Action::make(kStance, C(5), kLow));
  CHECK(t.player(0).area == kLow);
  CHECK(t.legal(0, Action::make(kForceHeal, S(11))));
  CHECK(t.legal(0, Action::make(kForceHeal, C(11))));  // a club royal always matches
  CHECK_FALSE(t.legal(0, Action::make(kForceHeal, H(11))));
  t.act(0, Action::make(kForceHeal, S(11)));
  CHECK(t.player(0).fatigue == 7);
}

TEST_CASE("J10 Force Push shields until the player's next turn unless attacked from High") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(12)};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {H(2), S(2)};
  setup.seats[2].stance = D(9);
  setup.seats[2].hand = {H(3), D(3)};
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  t.act(0, Action::make(kForcePush, H(12)));
  CHECK(t.player(0).shielded);
  t.act(1, Action::make(kStance, S(2)));  // seat 1 goes Low: still not High
  CHECK_FALSE(t.legal(1, Action::make(kAttack, H(2), 0)));
  CHECK(t.legal(1, Action::make(kAttack, H(2), 2)));
  t.act(1, Action::make(kDiscard, H(2)));
  t.act(1, t.s->legal_actions(1).front());  // Low: one of three drawn cards goes back
  t.act(2, Action::make(kStance, D(3)));    // High: the shield does not hold
  CHECK(t.legal(2, Action::make(kAttack, H(3), 0)));
  t.act(2, Action::make(kDiscard, H(3)));
  CHECK(t.s->turn() == 0);
  CHECK_FALSE(t.player(0).shielded);  // gone at the start of its owner's turn
}

TEST_CASE("J10 Force Sense shows the hand to the caster only and may swap a card") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {S(13), H(3)};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {D(9), kJ1};
  setup.seats[2].stance = D(10);
  setup.seats[2].hand = {D(2)};
  setup.deck_from_top = {C(2), C(3), C(4)};
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  CHECK_FALSE(t.legal(0, Action::make(kForceSense, S(13), 2)));  // J10: not into High
  t.act(0, Action::make(kForceSense, S(13), 1));
  CHECK(t.s->phase() == Phase::kSense);
  CHECK(view_of(t, Viewer::of_seat(0)).packed(16) == as_ids({D(9), kJ1}));
  CHECK(view_of(t, Viewer::of_seat(0)).get(15) == 2);  // 1 + the sensed seat
  for (Viewer other : {Viewer::of_seat(1), Viewer::of_seat(2), Viewer::spectator()}) {
    CHECK_FALSE(view_of(t, other).has(16));
  }
  const auto seen_by = [&](Viewer v) { return t.texts_for(v).back(); };
  CHECK(seen_by(Viewer::of_seat(0)).find("Joker") != std::string::npos);
  CHECK(seen_by(Viewer::of_seat(2)) == "@0 uses Force Sense on @1");
  t.act(0, Action::make(kSenseSwap, H(3), kJ1));
  CHECK(t.player(0).hand.front() == kJ1);
  CHECK(t.player(1).hand == std::vector<Card>{D(9), H(3)});
  CHECK_FALSE(view_of(t, Viewer::of_seat(0)).has(16));  // the look ends with the choice
  const auto swap_text = [&](Viewer v) {
    for (const std::string& text : t.texts_for(v)) {
      if (text.find("swaps") != std::string::npos) return text;
    }
    return std::string();
  };
  CHECK(swap_text(Viewer::of_seat(2)) == "@0 swaps a card with @1");
  CHECK(swap_text(Viewer::of_seat(1)) == "@0 swaps 3\u2665 for @1's Joker");
}

TEST_CASE("J24 Force Sense may swap any card of the caster's hand, whatever its size") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = S(8);
  // Six cards besides the King, not the seed's "remaining three": every one may be offered.
  setup.seats[0].hand = {H(3), S(13), D(4), C(5), kJ1, H(12), S(2)};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {D(9), C(2)};
  setup.seats[2].stance = D(10);
  setup.seats[2].hand = {D(2)};
  setup.deck_from_top = {C(3), C(4), C(6), C(7)};
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  t.act(0, Action::make(kForceSense, S(13), 1));
  REQUIRE(t.s->phase() == Phase::kSense);
  std::vector<Action> expected{Action::make(kNoSwap)};
  for (Card mine : {H(3), D(4), C(5), kJ1, H(12), S(2)}) {
    for (Card theirs : {D(9), C(2)}) expected.push_back(Action::make(kSenseSwap, mine, theirs));
  }
  std::sort(expected.begin(), expected.end());
  CHECK(t.s->legal_actions(0) == expected);
  // Even the Joker, a card the seed's five-card hand would rarely hold, may go across.
  t.act(0, Action::make(kSenseSwap, kJ1, C(2)));
  CHECK(std::vector<Card>(t.player(0).hand.begin(), t.player(0).hand.begin() + 6) ==
        std::vector<Card>{H(3), D(4), C(5), C(2), H(12), S(2)});
  CHECK(t.player(1).hand == std::vector<Card>{D(9), kJ1});
  CHECK(t.s->phase() == Phase::kReturn);  // then step 4 as usual: Low draws three

  // A caster left with a single card may swap it; one left with none can only decline.
  for (bool one_left : {true, false}) {
    TableSetup small;
    small.seats.resize(2);
    small.seats[0].stance = H(8);
    small.seats[0].hand = one_left ? std::vector<Card>{H(13), S(4)} : std::vector<Card>{H(13)};
    small.seats[1].stance = S(9);
    small.seats[1].hand = {D(9), C(2)};
    small.skip_stance_step = true;
    Table u = make_table(2, small);
    u.act(0, Action::make(kForceSense, H(13), 1));
    if (one_left) {
      std::vector<Action> offered{Action::make(kNoSwap), Action::make(kSenseSwap, S(4), D(9)),
                                  Action::make(kSenseSwap, S(4), C(2))};
      std::sort(offered.begin(), offered.end());
      CHECK(u.s->legal_actions(0) == offered);
      u.act(0, Action::make(kSenseSwap, S(4), D(9)));
      CHECK(u.player(1).hand == std::vector<Card>{S(4), C(2)});
    } else {
      CHECK(u.s->legal_actions(0) == std::vector<Action>{Action::make(kNoSwap)});
    }
  }
}

TEST_CASE("J11 Lightning against a mix of High, Queen-protected and defending players") {
  TableSetup setup;
  setup.seats.resize(5);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {D(11), H(12), S(13), C(11), H(2)};
  setup.seats[1].stance = D(9);  // High: untouched
  setup.seats[1].fatigue = 20;
  setup.seats[2].stance = H(9);  // shielded: untouched
  setup.seats[2].fatigue = 20;
  setup.seats[2].shielded = true;
  setup.seats[3].stance = S(9);  // defends, from a lower column
  setup.seats[3].hand = {S(12), C(7)};
  setup.seats[3].fatigue = 10;
  setup.seats[4].stance = H(7);  // cannot defend: wrong suit, and a club cannot stop Lightning
  setup.seats[4].hand = {S(11), C(8)};
  setup.seats[4].fatigue = 19;
  setup.skip_stance_step = true;
  Table t = make_table(5, setup);
  t.act(0, Action::make(kLightningRoyals, C(11), D(11), H(12), S(13)));
  CHECK(t.s->decider() == 3);
  CHECK_FALSE(t.legal(3, Action::make(kClubDefence, C(7))));
  t.act(3, Action::make(kForceDefence, S(12)));
  REQUIRE(t.s->phase() == Phase::kFumble);
  t.act(3, Action::make(kNoFumble));
  CHECK(t.s->decider() == 4);
  CHECK(t.s->legal_actions(4) == std::vector<Action>{Action::make(kNoDefence)});
  t.act(4, Action::make(kNoDefence));
  CHECK(t.player(1).fatigue == 20);
  CHECK(t.player(2).fatigue == 20);
  CHECK(t.player(3).fatigue == 10);
  CHECK(t.player(4).fatigue == 15);
  CHECK(t.s->phase() == Phase::kReturn);  // the caster, in Low, now draws three
}

TEST_CASE("J11 each Lightning fumble swaps the card in the caster's Stance at that moment") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {kJ1, kJ2};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {H(13), S(3)};
  setup.seats[1].fatigue = 10;
  setup.seats[2].stance = S(9);
  setup.seats[2].hand = {S(11), D(6)};
  setup.seats[2].fatigue = 5;
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  t.act(0, Action::make(kLightningJokers));
  t.act(1, Action::make(kForceDefence, H(13)));
  t.act(1, Action::make(kFumble, S(3)));
  CHECK(t.player(0).stance == S(3));
  const auto holds = [&](Seat seat, Card c) {
    const auto& hand = t.player(seat).hand;
    return std::find(hand.begin(), hand.end(), c) != hand.end();
  };
  CHECK(holds(1, H(8)));
  CHECK(t.s->decider() == 2);
  // J18: the caster is Low now, and even a High Stance would not take back the right to defend.
  t.act(2, Action::make(kForceDefence, S(11)));
  t.act(2, Action::make(kFumble, D(6)));
  CHECK(t.player(0).stance == D(6));
  CHECK(t.player(0).area == kHigh);
  CHECK(holds(2, S(3)));
  CHECK(t.player(1).fatigue == 10);
  CHECK(t.player(2).fatigue == 5);
  CHECK(t.player(0).hand.size() == 2);  // drew two: the Stance is High at step 4
}

TEST_CASE("J18 a Lightning keeps its defences after the caster fumbles into High") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {kJ1, kJ2};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {H(13), D(3)};
  setup.seats[1].fatigue = 10;
  setup.seats[2].stance = S(9);
  setup.seats[2].hand = {S(11)};
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  t.act(0, Action::make(kLightningJokers));
  t.act(1, Action::make(kForceDefence, H(13)));
  t.act(1, Action::make(kFumble, D(3)));
  REQUIRE(t.player(0).area == kHigh);
  CHECK(t.legal(2, Action::make(kForceDefence, S(11))));
}

TEST_CASE("J11 J12 Lightning and Jokers only from Middle or Low") {
  for (Card stance : {D(8), H(8), S(8)}) {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = stance;
    setup.seats[0].hand = {kJ1, kJ2, D(11), H(11), S(12), C(13)};
    setup.seats[1].stance = H(9);
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    const bool allowed = stance != D(8);
    CHECK(t.legal(0, Action::make(kLightningJokers)) == allowed);
    CHECK(t.legal(0, Action::make(kLightningRoyals, C(13), D(11), H(11), S(12))) == allowed);
    CHECK(t.legal(0, Action::make(kJokerAttack, kJ1, 1)) == allowed);
  }
}

TEST_CASE("J12 a Joker drops the target to the bottom of its column, only Force Defence stops it") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {kJ2};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {C(2), H(12)};
  setup.seats[1].fatigue = 12;
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kJokerAttack, kJ2, 1));
  CHECK(t.s->legal_actions(1) ==
        std::vector<Action>{Action::make(kNoDefence), Action::make(kForceDefence, H(12))});
  t.act(1, Action::make(kNoDefence));
  CHECK(t.player(1).fatigue == 8);
}
