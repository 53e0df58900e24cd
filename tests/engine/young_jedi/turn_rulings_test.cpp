// The rules document's own rulings on decks, setup, the turn and the game's end
// (docs/rules/young-jedi-duel.md, Y11 onwards), one scenario or more each.
#include "scenario.hpp"
#include "young_jedi/deck.hpp"

using namespace yj_test;

TEST_CASE("Y11 dots are counted per colour row, a white dot is wild, one per row") {
  // Ten orange dots (Sith Lightsaber) and Darth Maul, Sith Assassin's white dot in every row: the
  // white dot does not count against the orange row. STAP has no dots.
  auto wild = parse_deck("10 Sith Lightsaber\n1 Darth Maul, Sith Assassin\n29 1_116\n");
  INFO(wild.error);
  CHECK(wild.deck);
  // A second white dot in a row is refused, naming the card and the row.
  auto two = parse_deck("10 Sith Lightsaber\n2 Darth Maul, Sith Assassin\n28 1_116\n");
  CHECK(two.error ==
        "Y1: white dots are wild, at most one per colour and six per deck; Darth Maul, Sith "
        "Assassin (4_P4) has one too many in the red row");
  // An eleventh coloured dot in a row is refused.
  auto eleven = parse_deck("11 Sith Lightsaber\n29 1_116\n");
  CHECK(eleven.error.find("is the 11th with a orange dot") != std::string::npos);
  // Seat 0 plays the Light Side, seat 1 the Dark Side.
  CHECK(check_seat_decks({"", ready_decks()[2].list}) == std::nullopt);
  CHECK(check_seat_decks({ready_decks()[2].list, ""}).has_value());
}

TEST_CASE("Y12 a destiny contest that never ends goes to the Light Side") {
  // Every card of both decks has destiny 3: Gunga City (Light) and STAP (Dark), no dots.
  Registry registry = builtin_registry();
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    auto created = registry.create("young_jedi", 2, seed_from_number(seed), {},
                                   {"40 Gunga City\n", "40 STAP\n"});
    REQUIRE(created.state);
    auto& s = static_cast<YoungJediState&>(*created.state);
    CHECK(s.table().phase == Phase::kChoosePlanet);
    CHECK(s.table().to_act == 0);
    CHECK(card(s.table().planet_destiny[0]).destiny == card(s.table().planet_destiny[1]).destiny);
    apply_ok(s, 0, act(ActionKind::kChoosePlanet, 1));
    CHECK(s.table().active == 0);
    CHECK(s.table().phase == Phase::kDeploy);
  }
}

TEST_CASE("Y13 conceding is offered in your own deploy step only") {
  auto s = duel_position(1, qui_gon(), maul(), copies(10, "1_2"), copies(10, "1_71"));
  s->scenario_table().phase = Phase::kDeploy;
  CHECK(legal(*s, 1, act(ActionKind::kConcede)));
  CHECK_FALSE(legal(*s, 0, act(ActionKind::kConcede)));
  apply_ok(*s, 1, act(ActionKind::kEndDeploy));
  REQUIRE(s->table().phase == Phase::kChooseDuel);
  CHECK_FALSE(legal(*s, 1, act(ActionKind::kConcede)));
  CHECK(s->apply(1, act(ActionKind::kConcede)).reason ==
        "not now: it is time to initiate a duel or not");
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  REQUIRE(s->table().phase == Phase::kDefenderWeapon);
  CHECK_FALSE(legal(*s, 0, act(ActionKind::kConcede)));
  CHECK(s->apply(0, act(ActionKind::kConcede)).code == RefusalCode::kIllegal);
  CHECK_FALSE(s->terminal());
}

TEST_CASE("Y22 a game ends within 61 turns a player and the registry's bound") {
  Registry registry = builtin_registry();
  const RulesetInfo* info = registry.find("young_jedi");
  REQUIRE(info);
  // 122 turns of 2 step decisions and a duel of at most 3 decisions per dueling card (120
  // cards), plus 120 deploys.
  const long long bound = 122LL * (2 + 3 * 120 + 3) + 120;
  CHECK(bound <= info->max_game_length);
  for (int game = 0; game < 40; ++game) {
    auto created =
        registry.create("young_jedi", 2, seed_from_number(9000 + game), {},
                        {ready_decks()[game % 2].list, ready_decks()[2 + game / 2 % 2].list});
    REQUIRE(created.state);
    auto& s = static_cast<YoungJediState&>(*created.state);
    Rng rng(seed_from_number(300 + game));
    long long steps = 0;
    while (!s.terminal()) {
      Seat seat = s.pending().first();
      std::vector<Action> legal = s.legal_actions(seat);
      std::erase_if(legal,
                    [](Action a) { return a.kind == static_cast<uint8_t>(ActionKind::kConcede); });
      REQUIRE(s.apply(seat, legal[rng.below(static_cast<uint32_t>(legal.size()))]).ok());
      ++steps;
      REQUIRE(s.table().turn <= 122);
    }
    CHECK(steps <= bound);
    CHECK(s.outcome().reason != "conceded");
  }
}

TEST_CASE("Y26 the planet changes no card: the same duel at Tatooine, Naboo and Coruscant") {
  // Mace Windu, Jedi Councilor's bonus "when you have controlled Coruscant" never applies (Y8):
  // 6 + his lightsaber's 2 dots everywhere; Darth Maul 6 + 1 dot + 2 against a Jedi.
  for (int planet = 0; planet < kPlanets; ++planet) {
    INFO(planet);
    auto s = duel_position(0, cards({"Mace Windu, Jedi Councilor", "Mace Windu's Lightsaber"}),
                           maul(), copies(20, "1_2"), copies(20, "1_71"));
    s->scenario_table().planet = planet;
    apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
    apply_ok(*s, 1, act(ActionKind::kArmDefender, 1));
    CHECK(s->table().players[0].dueling_hand.size() == 8);
    CHECK(s->table().players[1].dueling_hand.size() == 9);
  }
}

TEST_CASE("Y28 battle cards are never deployed and duel by their destiny number") {
  auto deploy = duel_position(0, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  deploy->scenario_table().phase = Phase::kDeploy;
  deploy->scenario_table().players[0].hand = cards({"Anakin Skywalker, Meet Obi-Wan Kenobi"});
  CHECK(deploy->legal_actions(0) ==
        std::vector<Action>{act(ActionKind::kEndDeploy), act(ActionKind::kConcede)});
  // In a duel, the Menace of Darth Maul battle card (destiny 3, no "When dueling" text) blocks a
  // destiny-3 attack and scores a hit with nothing offered.
  auto s = duel_position(1, qui_gon(), maul(), copies(10, "1_2"), copies(10, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel = Duel{{0, 0}, {1, 1}, 1, kAbsent, kAbsent, kAbsent};
  t.players[0].dueling_hand = cards({"Anakin Skywalker, Meet Obi-Wan Kenobi", "1_2"});
  t.players[1].dueling_hand = cards({"1_103", "1_71"});
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  CHECK(legal(*s, 0, card_act(ActionKind::kBlock, "Anakin Skywalker, Meet Obi-Wan Kenobi")));
  CHECK_FALSE(legal(*s, 0, card_act(ActionKind::kBlock, "1_2")));
  apply_ok(*s, 0, card_act(ActionKind::kBlock, "Anakin Skywalker, Meet Obi-Wan Kenobi"));
  apply_ok(*s, 1, act(ActionKind::kTakeHit));
  CHECK(s->table().players[1].hits == 1);
  CHECK(s->table().phase == Phase::kAttack);
  CHECK(s->table().to_act == 1);
}
