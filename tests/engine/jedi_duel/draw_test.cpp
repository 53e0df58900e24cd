// Discarding and drawing (J13, J14, J19, J25, J29): regaining fatigue, Low Stance's three cards,
// refilling the deck from the discard pile.
#include "table.hpp"

using namespace jedi_test;

TEST_CASE("J13 discarding regains 2 on a suit match, else 1, never past the column's top") {
  struct Case {
    Card top, played;
    int fatigue, expected;
  };
  const Case cases[] = {
      {H(5), H(9), 10, 12}, {H(5), D(9), 10, 11}, {H(5), C(9), 10, 12}, {C(5), D(9), 10, 12},
      {kJ1, C(9), 10, 11},  {H(5), kJ2, 10, 11},  {H(5), H(9), 13, 14}, {H(5), H(9), 14, 14},
      {H(5), H(9), 21, 21}, {H(5), H(9), 7, 7},
  };
  for (const Case& c : cases) {
    INFO(card_name(c.top) << " on top, " << card_name(c.played) << " from " << c.fatigue);
    TableSetup setup;
    setup.seats.resize(2);
    setup.seats[0].stance = S(8);
    setup.seats[0].hand = {c.played};
    setup.seats[0].fatigue = c.fatigue;
    setup.seats[1].stance = S(9);
    setup.discard_from_bottom = {c.top};
    setup.skip_stance_step = true;
    Table t = make_table(2, setup);
    t.act(0, Action::make(kDiscard, c.played));
    CHECK(t.player(0).fatigue == c.expected);
  }
}

TEST_CASE("J14 Low Stance draws three and returns one, seen by its owner only") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {H(2), H(3)};
  setup.seats[1].stance = H(9);
  setup.seats[1].hand = {D(2)};
  setup.deck_from_top = {C(4), C(5), C(6), C(7)};
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kDiscard, H(2)));
  REQUIRE(t.s->phase() == Phase::kReturn);
  CHECK(t.s->legal_actions(0) == std::vector<Action>{Action::make(kReturnCard, C(4)),
                                                     Action::make(kReturnCard, C(5)),
                                                     Action::make(kReturnCard, C(6))});
  CHECK(view_of(t, Viewer::of_seat(0)).packed(17) == as_ids({C(4), C(5), C(6)}));
  CHECK_FALSE(view_of(t, Viewer::of_seat(1)).has(17));
  t.act(0, Action::make(kReturnCard, C(5)));
  CHECK(t.s->deck().back() == C(5));
  CHECK(t.player(0).hand == std::vector<Card>{H(3), C(4), C(6)});

  const auto known = [&](Viewer v) { return view_of(t, v).messages(14); };
  REQUIRE(known(Viewer::of_seat(0)).size() == 1);
  CHECK(known(Viewer::of_seat(0))[0].get(1) == 0);  // depth: the top
  CHECK(known(Viewer::of_seat(0))[0].get(2) == C(5));
  CHECK(known(Viewer::of_seat(1)).empty());
  CHECK(known(Viewer::spectator()).empty());
  CHECK(t.texts_for(Viewer::of_seat(1)).back() == "@0 puts a card back on the deck");
  CHECK(t.texts_for(Viewer::of_seat(0)).back() == "@0 puts 5\u2663 back on the deck");

  // The owner's redraw keeps the known card; the opponent's may not, and its view cannot tell.
  Rng rng(seed_from_number(5));
  bool moved = false;
  for (int i = 0; i < 20; ++i) {
    auto mine = t.s->clone();
    mine->resample_hidden(Viewer::of_seat(0), rng);
    CHECK(dynamic_cast<JediDuelState&>(*mine).deck().back() == C(5));
    auto theirs = t.s->clone();
    theirs->resample_hidden(Viewer::of_seat(1), rng);
    moved = moved || dynamic_cast<JediDuelState&>(*theirs).deck().back() != C(5);
    CHECK(theirs->view(Viewer::of_seat(1)) == t.s->view(Viewer::of_seat(1)));
  }
  CHECK(moved);

  // Once drawn, the card is no longer on the deck and no longer shown as known.
  t.act(1, Action::make(kStance, D(2)));
  t.act(1, Action::make(kPassAction));  // the hand is empty after the Stance
  CHECK(t.player(1).hand.front() == C(5));
  CHECK(known(Viewer::of_seat(0)).empty());
}

TEST_CASE("J14 an empty deck is refilled from the discard pile but its top card, one pass") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(2)};
  setup.seats[1].stance = S(9);
  setup.seats[1].hand = {S(3)};
  everything_else_discarded(setup);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  REQUIRE(t.s->deck().empty());
  t.act(0, Action::make(kDiscard, H(2)));
  CHECK(t.s->passes() == 1);
  CHECK(t.s->discard_pile() == std::vector<Card>{H(2)});
  CHECK(t.player(0).hand.size() == 2);
  // 54 cards less the three held, the pile's top and the two drawn
  CHECK(t.s->deck().size() == static_cast<size_t>(kDeckSize - 3 - 1 - 2));
  CHECK_FALSE(t.s->terminal());
  CHECK(t.s->chance_log().back().what == "reshuffle discard pile into draw deck");
}

TEST_CASE("J19 with no card to refill the deck the draw falls short and Low keeps all") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {S(2)};
  setup.seats[1].stance = H(9);
  // Everything else in the two hands, so that only the discarded card is left to draw from.
  for (Card c = 1; c <= kDeckSize; ++c) {
    if (c != S(8) && c != S(2) && c != H(9)) setup.seats[1].hand.push_back(c);
  }
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kDiscard, S(2)));
  CHECK(t.player(0).hand.empty());
  CHECK(t.s->phase() == Phase::kStance);  // no card put back: nothing was drawn
  CHECK(t.s->turn() == 1);
  CHECK(t.s->passes() == 0);
}

TEST_CASE("J25 the card put back in Low is one of the three just drawn") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {H(2), D(3), C(4)};
  setup.seats[1].stance = H(9);
  setup.deck_from_top = {H(5), D(6), S(7), D(8)};
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kDiscard, H(2)));
  REQUIRE(t.s->phase() == Phase::kReturn);
  std::vector<Action> drawn{Action::make(kReturnCard, H(5)), Action::make(kReturnCard, D(6)),
                            Action::make(kReturnCard, S(7))};
  std::sort(drawn.begin(), drawn.end());
  CHECK(t.s->legal_actions(0) == drawn);
  for (Card held_before : {D(3), C(4)}) {
    ApplyResult refused = t.try_act(0, Action::make(kReturnCard, held_before));
    CHECK(refused.code == RefusalCode::kIllegal);
  }
  CHECK(t.player(0).hand.size() == 5);
  t.act(0, Action::make(kReturnCard, D(6)));
  CHECK(t.s->deck().back() == D(6));
  CHECK(t.player(0).hand == std::vector<Card>{D(3), C(4), H(5), S(7)});
}

TEST_CASE("J25 the three to choose from are the drawn ones when a refill comes mid-draw") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = S(8);
  setup.seats[0].hand = {H(2), D(3), C(4)};
  setup.seats[1].stance = H(9);
  setup.deck_from_top = {H(5)};  // one card, then the discard pile becomes the deck
  everything_else_discarded(setup);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  t.act(0, Action::make(kDiscard, H(2)));
  REQUIRE(t.s->passes() == 1);
  REQUIRE(t.s->phase() == Phase::kReturn);
  const auto& hand = t.player(0).hand;
  REQUIRE(hand.size() == 5);
  CHECK(hand[2] == H(5));
  std::vector<Action> drawn{Action::make(kReturnCard, hand[2]), Action::make(kReturnCard, hand[3]),
                            Action::make(kReturnCard, hand[4])};
  std::sort(drawn.begin(), drawn.end());
  CHECK(t.s->legal_actions(0) == drawn);
  CHECK_FALSE(t.legal(0, Action::make(kReturnCard, D(3))));
  CHECK_FALSE(t.legal(0, Action::make(kReturnCard, C(4))));
}

TEST_CASE("J29 regaining with an empty discard pile gives 1") {
  TableSetup setup;
  setup.seats.resize(2);
  setup.seats[0].stance = H(8);
  setup.seats[0].hand = {H(9)};
  setup.seats[0].fatigue = 10;
  setup.seats[1].stance = S(9);
  setup.skip_stance_step = true;
  Table t = make_table(2, setup);
  REQUIRE(t.s->discard_pile().empty());
  t.act(0, Action::make(kDiscard, H(9)));
  CHECK(t.player(0).fatigue == 11);
}
