// Attacks, defences and fumbles: seed "Attacking", "Force Defence", rulings J2, J4-J8, J18, J21,
// J23.
#include "table.hpp"

using namespace jedi_test;

namespace {

Card card_in(Area area, int rank) {
  return area == kHigh ? D(rank) : area == kMiddle ? H(rank) : S(rank);
}

// Seat 0 (Stance in `mine`) attacks seat 1 (Stance `theirs`, value 9) with a 2 into `into`.
Table attack_setup(Area mine, Area theirs, Area into) {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = card_in(mine, 8);
  setup.seats[0].hand = {card_in(into, 2)};
  setup.seats[1].stance = card_in(theirs, 9);
  setup.skip_stance_step = true;
  return make_table(2, setup);
}

}  // namespace

TEST_CASE("J4 J5 every stance pair of the modifier tables") {
  // The playaid tables written out as the rulings give them, not taken from the code.
  const auto speed = [](Area attacker, Area into) { return attacker == into ? 1 : 2; };
  const auto defence_mod = [](Area defender, Area into) {
    if (defender == into) return 0;
    if (defender == kMiddle) return 2;
    return (defender == kHigh && into == kLow) || (defender == kLow && into == kHigh) ? 5 : 3;
  };
  for (Area mine : {kHigh, kMiddle, kLow}) {
    for (Area theirs : {kHigh, kMiddle, kLow}) {
      for (Area into : {kHigh, kMiddle, kLow}) {
        INFO("attacker " << area_name(mine) << ", defender " << area_name(theirs) << ", into "
                         << area_name(into));
        Table t = attack_setup(mine, theirs, into);
        t.act(0, Action::make(kAttack, card_in(into, 2), 1));
        CHECK(t.s->attack().attack_total == 2 + speed(mine, into));
        CHECK(t.s->attack().defence_total == 9 + defence_mod(theirs, into));
        t.act(1, Action::make(kNoDefence));
        const int damage = 9 + defence_mod(theirs, into) - 2 - speed(mine, into);
        CHECK(t.player(1).fatigue == 21 - std::max(0, damage));
      }
    }
  }
}

TEST_CASE("J2 the areas lie on a line: High and Low are two steps apart, every other pair one") {
  // The line High - Middle - Low written out as the ruling gives it, not taken from the code.
  const auto steps = [](Area a, Area b) {
    if (a == b) return 0;
    return (a == kHigh && b == kLow) || (a == kLow && b == kHigh) ? 2 : 1;
  };
  for (Area a : {kHigh, kMiddle, kLow}) {
    for (Area b : {kHigh, kMiddle, kLow}) CHECK(steps_between(a, b) == steps(a, b));
  }
  // Each suit's Stance stands in its area.
  const std::pair<Card, Area> stances[] = {{D(3), kHigh}, {H(3), kMiddle}, {S(3), kLow}};
  for (auto [stance, area] : stances) {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = H(8);
    setup.seats[0].hand = {stance};
    setup.seats[1].stance = S(9);
    Table t = make_table(2, setup);
    t.act(0, Action::make(kStance, stance));
    CHECK(t.player(0).area == area);
  }
  // The distance shows in play: a club attack adds no speed, so only the defender's modifier
  // moves the totals. An edge Stance (High, Low) adds 3 one step away and 5 two steps away; a
  // Middle Stance has no area two steps away and adds 2 either side.
  for (Area theirs : {kHigh, kMiddle, kLow}) {
    for (Area into : {kHigh, kMiddle, kLow}) {
      INFO("defender " << area_name(theirs) << ", club attack into " << area_name(into));
      const int d = steps(theirs, into);
      const int modifier = d == 0 ? 0 : theirs == kMiddle ? 2 : d == 1 ? 3 : 5;
      TableSetup setup;
      setup.seats.resize(2);
      setup.seats[0].stance = H(8);
      setup.seats[0].hand = {C(2)};
      setup.seats[1].stance = card_in(theirs, 9);
      setup.skip_stance_step = true;
      Table t = make_table(2, setup);
      t.act(0, Action::make(kAttack, C(2), 1, into));
      CHECK(t.s->attack().area == into);
      CHECK(t.s->attack().attack_total == 2);
      CHECK(t.s->attack().defence_total == 9 + modifier);
      t.act(1, Action::make(kNoDefence));
      CHECK(t.player(1).fatigue == 21 - (9 + modifier - 2));
    }
  }
}

TEST_CASE("J5 an attack only hits when faster, equal totals do nothing") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(10);
  setup.seats[0].hand = {H(7)};  // 7 + 1 = 8 against a Middle Stance of 8
  setup.seats[1].stance = H(8);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(7), 1));
  t.act(1, Action::make(kNoDefence));
  CHECK(t.player(1).fatigue == 21);
  CHECK(t.s->turn() == 1);
}

TEST_CASE("J4 a club attack adds no speed modifier but names the area it attacks") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {C(4)};
  setup.seats[1].stance = S(9);  // Low: +5 when High is attacked, +3 for Middle, 0 for Low
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  CHECK_FALSE(t.legal(0, Action::make(kAttack, C(4), 1)));  // a club must name an area
  CHECK(t.legal(0, Action::make(kAttack, C(4), 1, kLow)));
  t.act(0, Action::make(kAttack, C(4), 1, kHigh));
  CHECK(t.s->attack().attack_total == 4);
  CHECK(t.s->attack().defence_total == 14);
  t.act(1, Action::make(kNoDefence));
  CHECK(t.player(1).fatigue == 11);
}

TEST_CASE("J6 a club replaces the whole defence total and the defender draws a replacement") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(5), H(6)};
  setup.seats[1].stance = S(13);  // 13 + 3 = 16 against an attack of 6: 10 damage undefended
  setup.seats[1].hand = {C(9), C(3)};
  setup.deck_from_top = {D(2), D(3), D(4)};
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(5), 1));
  t.act(1, Action::make(kClubDefence, C(9)));
  CHECK(t.player(1).fatigue == 21 - (9 - 6));
  // Step 4: the attacker draws two, then the defender one.
  CHECK(t.player(0).hand == std::vector<Card>{H(6), D(2), D(3)});
  CHECK(t.player(1).hand == std::vector<Card>{C(3), D(4)});
  CHECK(t.s->discard_pile().back() == C(9));
}

TEST_CASE("J6 a slow club stops the attack entirely") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(5)};
  setup.seats[1].stance = S(13);
  setup.seats[1].hand = {C(3)};
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(5), 1));
  t.act(1, Action::make(kClubDefence, C(3)));
  CHECK(t.player(1).fatigue == 21);
}

TEST_CASE("J7 Force Defence negates an attack, the royal must match the Stance or be a club") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);
  setup.seats[1].hand = {S(12), H(12), C(11), S(5)};
  setup.deck_from_top = {D(2), D(3), D(4)};
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  CHECK(t.legal(1, Action::make(kForceDefence, S(12))));
  CHECK(t.legal(1, Action::make(kForceDefence, C(11))));
  CHECK_FALSE(t.legal(1, Action::make(kForceDefence, H(12))));  // not the Stance's suit
  CHECK_FALSE(t.legal(1, Action::make(kForceDefence, S(5))));   // not a royal
  t.act(1, Action::make(kForceDefence, S(12)));
  CHECK(t.player(1).fatigue == 21);
  CHECK(t.s->phase() == Phase::kStance);   // same column: no fumble, the turn passed on
  CHECK(t.player(1).hand.back() == D(4));  // the replacement draw
}

TEST_CASE("J7 Force Defence refused against a High-stance attacker") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = D(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);
  setup.seats[1].hand = {S(12), C(13)};
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  const std::string before = t.s->serialize();
  ApplyResult refused = t.try_act(1, Action::make(kForceDefence, S(12)));
  CHECK(refused.code == RefusalCode::kIllegal);
  CHECK(refused.reason.find("Force Defence") != std::string::npos);
  CHECK(t.s->serialize() == before);
  CHECK_FALSE(t.legal(1, Action::make(kForceDefence, C(13))));
  CHECK(t.legal(1, Action::make(kClubDefence, C(13))));  // a club still serves as a club
}

TEST_CASE("J23 the attacked player answers even with nothing to defend with") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  CHECK(t.s->pending() == SeatMask::only(1));
  CHECK(t.s->legal_actions(1) == std::vector<Action>{Action::make(kNoDefence)});
}

namespace {
Phase after_force_defence(int attacker_fatigue, int defender_fatigue) {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[0].fatigue = attacker_fatigue;
  setup.seats[1].stance = S(13);
  setup.seats[1].hand = {S(11), D(4)};
  setup.seats[1].fatigue = defender_fatigue;
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  t.act(1, Action::make(kForceDefence, S(11)));
  return t.s->phase();
}
}  // namespace

TEST_CASE("J8 fumble only from a lower column") {
  CHECK(after_force_defence(20, 10) == Phase::kFumble);  // 14-8 is below 21-15
  CHECK(after_force_defence(8, 7) == Phase::kFumble);    // 7-1 is below 14-8
  CHECK(after_force_defence(21, 15) == Phase::kStance);  // same column
  CHECK(after_force_defence(14, 8) == Phase::kStance);   // same column
  CHECK(after_force_defence(10, 20) == Phase::kStance);  // higher column
}

TEST_CASE("J8 a fumble swaps the attacker's Stance card, a club keeps the area") {
  for (bool with_club : {false, true}) {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = H(8);
    setup.seats[0].hand = {H(2)};
    setup.seats[1].stance = S(13);
    setup.seats[1].hand = {S(11), D(4), C(6), kJ1};
    setup.seats[1].fatigue = 9;
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    t.act(0, Action::make(kAttack, H(2), 1));
    t.act(1, Action::make(kForceDefence, S(11)));
    REQUIRE(t.s->phase() == Phase::kFumble);
    CHECK_FALSE(t.legal(1, Action::make(kFumble, kJ1)));  // a Joker cannot be a Stance
    const Card given = with_club ? C(6) : D(4);
    t.act(1, Action::make(kFumble, given));
    CHECK(t.player(0).stance == given);
    CHECK(t.player(0).area == (with_club ? kMiddle : kHigh));
    const auto& hand = t.player(1).hand;
    CHECK(std::count(hand.begin(), hand.end(), H(8)) == 1);
    CHECK(std::count(hand.begin(), hand.end(), given) == 0);
  }
}

TEST_CASE("J21 a Queen's shield turns away attacks unless made from High") {
  for (Card attacker_stance : {H(8), D(8)}) {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = attacker_stance;
    setup.seats[0].hand = {H(2), kJ1};
    setup.seats[1].stance = S(13);
    setup.seats[1].shielded = true;
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    const bool from_high = attacker_stance == D(8);
    CHECK(t.legal(0, Action::make(kAttack, H(2), 1)) == from_high);
    CHECK_FALSE(
        t.legal(0, Action::make(kJokerAttack, kJ1, 1)));  // Middle: shielded; High: no Joker
    if (from_high) {
      t.act(0, Action::make(kAttack, H(2), 1));
      t.act(1, Action::make(kNoDefence));
      CHECK(t.player(1).fatigue == 21 - (13 + 3 - 4));
    }
  }
}
