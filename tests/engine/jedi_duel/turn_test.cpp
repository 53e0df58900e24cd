// Setup and the turn's steps: seed "Setup", "Playing the Game", rulings J1, J9, J16, J17, J20,
// J22, J27, J30. Drawing is in draw_test.cpp, the end in end_test.cpp.
#include "table.hpp"

using namespace jedi_test;

TEST_CASE("J1 54 cards: ranks A=1 to K=13, royals J Q K, two Jokers without rank or suit") {
  CHECK(rank_of(C(1)) == 1);
  CHECK(rank_of(S(13)) == 13);
  CHECK(is_royal(H(11)));
  CHECK_FALSE(is_royal(H(10)));
  CHECK(is_joker(kJ1));
  CHECK_FALSE(is_royal(kJ2));
  CHECK_FALSE(is_club(kJ1));
  CHECK(card_name(H(12)) == "Q\u2665");
  Registry registry = builtin_registry();
  for (int seats = 2; seats <= 6; ++seats) {
    auto state = registry.create("jedi_duel", seats, seed_from_number(7), {}).state;
    std::vector<int32_t> once(kDeckSize + 1, 1);
    once[0] = 0;
    CHECK(state->inventory() == once);
  }
  CHECK_FALSE(registry.create("jedi_duel", 1, seed_from_number(7), {}).state);
  CHECK_FALSE(registry.create("jedi_duel", 7, seed_from_number(7), {}).state);
}

TEST_CASE(
    "J17 J22 setup: five cards, initial Stances from the dealer's second left to the dealer") {
  Registry registry = builtin_registry();
  for (int seats = 2; seats <= 6; ++seats) {
    auto owner = registry.create("jedi_duel", seats, seed_from_number(100 + seats), {}).state;
    auto& s = dynamic_cast<JediDuelState&>(*owner);
    const Seat dealer = s.dealer();
    const Seat first = (dealer + 1) % seats;
    for (Seat seat = 0; seat < seats; ++seat) CHECK(s.player(seat).hand.size() == 5);
    CHECK(s.deck().size() == static_cast<size_t>(kDeckSize - 5 * seats));
    for (int i = 2; i <= seats; ++i) {
      const Seat seat = (dealer + i) % seats;
      REQUIRE(s.phase() == Phase::kSetup);
      REQUIRE(s.pending() == SeatMask::only(seat));
      const Action choice = s.legal_actions(seat).front();
      REQUIRE(s.apply(seat, choice).ok());
      CHECK(s.player(seat).stance == choice.arg(0));
      CHECK(s.player(seat).hand.size() == 5);  // played one, drew its replacement
    }
    CHECK(s.phase() == Phase::kStance);
    CHECK(s.turn() == first);
    CHECK(s.player(first).stance == kNoCard);
  }
}

TEST_CASE(
    "J22 cards are dealt one at a time from the dealer's left, Stances chosen up to the dealer") {
  Registry registry = builtin_registry();
  for (int seats = 2; seats <= 6; ++seats) {
    INFO(seats << " seats");
    auto owner = registry.create("jedi_duel", seats, seed_from_number(200 + seats), {}).state;
    auto& s = dynamic_cast<JediDuelState&>(*owner);
    const Seat dealer = s.dealer();
    // The recorded shuffle: position i of the fresh deck holds card order[i] + 1; the top is
    // the back.
    const auto& log = s.chance_log();
    auto shuffled = std::find_if(log.begin(), log.end(), [](const ChanceRecord& r) {
      return r.what == "shuffle draw deck";
    });
    REQUIRE(shuffled != log.end());
    REQUIRE(shuffled->values.size() == static_cast<size_t>(kDeckSize));
    std::vector<std::vector<Card>> expected(static_cast<size_t>(seats));
    for (int k = 0; k < 5 * seats; ++k) {
      const Seat to = (dealer + 1 + k % seats) % seats;
      const Card top =
          static_cast<Card>(shuffled->values[static_cast<size_t>(kDeckSize - 1 - k)] + 1);
      expected[static_cast<size_t>(to)].push_back(top);
    }
    for (Seat seat = 0; seat < seats; ++seat) CHECK(s.player(seat).hand == expected[seat]);
    // The initial Stances: from the dealer's second left round to the dealer; the dealer's left
    // is never asked.
    std::vector<Seat> asked;
    while (s.phase() == Phase::kSetup) {
      const Seat seat = s.decider();
      asked.push_back(seat);
      REQUIRE(s.apply(seat, s.legal_actions(seat).front()).ok());
    }
    std::vector<Seat> order;
    for (int i = 2; i <= seats; ++i) order.push_back((dealer + i) % seats);
    CHECK(asked == order);
    CHECK(s.turn() == (dealer + 1) % seats);
  }
}

TEST_CASE("Seed: each turn the old Stance is discarded and a new one played") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(3), D(4)};
  setup.seats[1].stance = S(9);
  Table t = make_table(2, setup);
  CHECK(t.s->phase() == Phase::kStance);
  t.act(0, Action::make(kStance, H(3)));  // the same suit keeps the same area
  CHECK(t.player(0).area == kMiddle);
  CHECK(t.s->discard_pile().back() == H(8));
  CHECK(t.player(0).stance == H(3));
  CHECK(t.s->phase() == Phase::kAction);
}

TEST_CASE("J16 no card for a Stance keeps the old one, an empty hand passes step 3") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {kJ1, kJ2};
  setup.seats[1].stance = S(9);
  Table t = make_table(2, setup);
  CHECK(t.s->phase() == Phase::kAction);
  CHECK(t.player(0).stance == H(8));

  TableSetup empty;
  empty.seats.resize(2);
  empty.seats[0].stance = H(8);
  empty.seats[1].stance = S(9);
  Table e = make_table(2, empty);
  CHECK(e.s->legal_actions(0) == std::vector<Action>{Action::make(kPassAction)});
  e.act(0, Action::make(kPassAction));
  CHECK(e.player(0).hand.size() == 2);
}

TEST_CASE("J9 a player at 0 is out: hand, then Stance, to the discard pile, turns skip them") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);
  setup.seats[1].hand = {D(5), D(6)};
  setup.seats[1].fatigue = 3;
  setup.seats[2].stance = H(9);
  setup.seats[2].hand = {H(4), H(5)};
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  t.act(1, Action::make(kNoDefence));
  CHECK(t.player(1).out);
  CHECK(t.player(1).hand.empty());
  CHECK(t.player(1).stance == kNoCard);
  const auto& pile = t.s->discard_pile();
  REQUIRE(pile.size() == 4);  // the attack card, the hand, then the Stance (J20)
  CHECK(std::vector<Card>(pile.begin() + 1, pile.end()) == std::vector<Card>{D(5), D(6), S(13)});
  CHECK_FALSE(t.s->terminal());
  CHECK(t.s->turn() == 2);
  // Seat 2 plays her Stance and reaches step 3, where attacks are made: nobody attacks the
  // fallen seat 1, seat 0 still may be.
  REQUIRE(t.s->phase() == Phase::kStance);
  t.act(2, Action::make(kStance, H(5)));
  REQUIRE(t.s->phase() == Phase::kAction);
  CHECK(t.legal(2, Action::make(kAttack, H(4), 0)));
  CHECK_FALSE(t.legal(2, Action::make(kAttack, H(4), 1)));
  CHECK(t.try_act(2, Action::make(kAttack, H(4), 1)).code == RefusalCode::kIllegal);
}

TEST_CASE("J20 a fallen player's hand goes to the discard pile in the order held, Stance on top") {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(13);  // 13 + 3 against an attack of 2 + 1 into Middle
  setup.seats[1].hand = {S(5), C(10), H(4), D(6)};
  setup.seats[1].fatigue = 3;
  setup.seats[2].stance = H(9);
  setup.seats[2].hand = {H(3)};
  setup.skip_stance_step = true;
  Table t = make_table(3, setup);
  t.act(0, Action::make(kAttack, H(2), 1));
  t.act(1, Action::make(kClubDefence, C(10)));  // 10 - 3 = 7 damage: out
  REQUIRE(t.player(1).out);
  // The attack card, the defending club, the rest of the hand as it was held, the Stance last.
  CHECK(t.s->discard_pile() == std::vector<Card>{H(2), C(10), S(5), H(4), D(6), S(13)});
  for (Viewer v : {Viewer::of_seat(0), Viewer::of_seat(2), Viewer::spectator()}) {
    CHECK(view_of(t, v).get(6) == S(13));  // the top every player regains against (J13)
  }
  CHECK(t.player(1).hand.empty());  // the fallen owe no replacement draw
  CHECK(t.s->turn() == 2);
}

TEST_CASE("J27 a Lightning that reaches nobody may still be cast") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {kJ1, kJ2};
  setup.seats[1].stance = D(9);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kLightningJokers));
  CHECK(t.s->turn() == 1);  // no opponent to answer: straight on to the draw and the next turn
  CHECK(t.player(1).fatigue == 21);
}

TEST_CASE("J30 Low Stance is judged at step 4, after any fumble") {
  // Middle at the attack, fumbled into Low: the attacker draws three and puts one back.
  {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = H(8);
    setup.seats[0].hand = {H(2), D(9)};
    setup.seats[1].stance = H(9);
    setup.seats[1].hand = {H(12), S(6)};
    setup.seats[1].fatigue = 5;  // a lower column than the attacker's: may fumble
    setup.deck_from_top = {C(2), C(3), C(4), C(5)};
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    t.act(0, Action::make(kAttack, H(2), 1));
    t.act(1, Action::make(kForceDefence, H(12)));
    t.act(1, Action::make(kFumble, S(6)));
    REQUIRE(t.player(0).area == kLow);
    REQUIRE(t.s->phase() == Phase::kReturn);
    CHECK(t.s->decider() == 0);
    CHECK(t.player(0).hand == std::vector<Card>{D(9), C(2), C(3), C(4)});
    t.act(0, Action::make(kReturnCard, C(3)));
    CHECK(t.player(0).hand == std::vector<Card>{D(9), C(2), C(4)});
    CHECK(t.player(1).hand == std::vector<Card>{H(8), C(3)});  // the replacement draw
    CHECK(t.s->turn() == 1);
  }
  // Low at the attack, fumbled into Middle: the attacker draws two only.
  {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = S(8);
    setup.seats[0].hand = {S(2), D(9)};
    setup.seats[1].stance = S(9);
    setup.seats[1].hand = {S(12), H(6)};
    setup.seats[1].fatigue = 5;
    setup.deck_from_top = {C(2), C(3), C(4), C(5)};
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    t.act(0, Action::make(kAttack, S(2), 1));
    t.act(1, Action::make(kForceDefence, S(12)));
    t.act(1, Action::make(kFumble, H(6)));
    REQUIRE(t.player(0).area == kMiddle);
    CHECK(t.player(0).hand == std::vector<Card>{D(9), C(2), C(3)});
    CHECK(t.player(1).hand == std::vector<Card>{S(8), C(4)});
    CHECK(t.s->turn() == 1);
    CHECK(t.s->phase() == Phase::kStance);
  }
  // The same after a Lightning: cast from Middle, fumbled into Low, the caster draws three.
  {
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = H(8);
    setup.seats[0].hand = {kJ1, kJ2, D(9)};
    setup.seats[1].stance = H(9);
    setup.seats[1].hand = {H(13), S(6)};
    setup.seats[1].fatigue = 5;
    setup.deck_from_top = {C(2), C(3), C(4), C(5)};
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    t.act(0, Action::make(kLightningJokers));
    t.act(1, Action::make(kForceDefence, H(13)));
    t.act(1, Action::make(kFumble, S(6)));
    REQUIRE(t.player(0).area == kLow);
    CHECK(t.s->phase() == Phase::kReturn);
    CHECK(t.player(0).hand == std::vector<Card>{D(9), C(2), C(3), C(4)});
  }
}
