// Setup, the turn and choosing who duels: rulings Y2-Y4 and seed 003's "Who fights in the duel?".
#include "scenario.hpp"

using namespace yj_test;

TEST_CASE("Y2 the higher planet destiny picks the planet") {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    auto s = new_match(seed);
    const Table& t = s->table();
    REQUIRE(t.phase == Phase::kChoosePlanet);
    int chooser = t.to_act;
    CHECK(card(t.planet_destiny[chooser]).destiny > card(t.planet_destiny[1 - chooser]).destiny);
    CHECK(s->pending() == SeatMask::only(chooser));
    CHECK(s->legal_actions(chooser).size() == 3);
  }
}

TEST_CASE("Y3 setup: both draw six and the higher destiny goes first") {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    auto s = new_match(seed);
    apply_ok(*s, s->table().to_act, act(ActionKind::kChoosePlanet, 2));
    const Table& t = s->table();
    CHECK(t.planet == 2);
    int first = t.active;
    CHECK(card(t.first_player_destiny[first]).destiny >
          card(t.first_player_destiny[1 - first]).destiny);
    CHECK(t.phase == Phase::kDeploy);
    CHECK(t.turn == 1);
    for (const Player& p : t.players) {
      CHECK(p.hand.size() == 6);
      CHECK(p.draw.size() == 34);  // the ready decks hold 40 cards
    }
  }
}

TEST_CASE("Y4 deploying spends at most six counters and never battle cards") {
  auto s = duel_position(0, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kDeploy;
  t.counters_left = kDeployCounters;
  t.players[0].hand = cards({"Qui-Gon Jinn, Jedi Mentor", "Obi-Wan Kenobi's Lightsaber",
                             "Adi Gallia's Lightsaber", "A Powerful Opponent"});
  CHECK(legal(*s, 0, card_act(ActionKind::kDeploy, "Qui-Gon Jinn, Jedi Mentor")));
  CHECK_FALSE(legal(*s, 0, card_act(ActionKind::kDeploy, "A Powerful Opponent")));
  apply_ok(*s, 0, card_act(ActionKind::kDeploy, "Qui-Gon Jinn, Jedi Mentor"));
  CHECK(s->table().counters_left == 0);
  CHECK(s->table().players[0].in_play == cards({"Qui-Gon Jinn, Jedi Mentor"}));
  // Six counters are spent: a one-counter weapon no longer fits, a free one does.
  CHECK_FALSE(legal(*s, 0, card_act(ActionKind::kDeploy, "Adi Gallia's Lightsaber")));
  auto refused = s->apply(0, card_act(ActionKind::kDeploy, "Adi Gallia's Lightsaber"));
  CHECK(refused.code == RefusalCode::kIllegal);
  CHECK_FALSE(refused.reason.empty());
  CHECK(legal(*s, 0, card_act(ActionKind::kDeploy, "Obi-Wan Kenobi's Lightsaber")));
}

TEST_CASE("Y4 weapons may be deployed where no character can use them (FAQ)") {
  auto s = duel_position(1, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kDeploy;
  t.players[1].hand = cards({"Sith Lightsaber"});
  apply_ok(*s, 1, card_act(ActionKind::kDeploy, "Sith Lightsaber"));
  CHECK(s->table().players[1].in_play == cards({"Sith Lightsaber"}));
}

TEST_CASE("Y4 the draw step draws one card and passes the turn") {
  auto s = duel_position(0, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  s->scenario_table().phase = Phase::kDeploy;
  apply_ok(*s, 0, act(ActionKind::kEndDeploy));  // no duel possible: straight to the draw
  const Table& t = s->table();
  CHECK(t.players[0].hand.size() == 1);
  CHECK(t.players[0].draw.size() == 4);
  CHECK(t.active == 1);
  CHECK(t.phase == Phase::kDeploy);
  CHECK(t.counters_left == kDeployCounters);
}

TEST_CASE("Seed 003 a duel needs a dueling character with a lightsaber it can use") {
  // Anakin is no Jedi; Qui-Gon without a lightsaber cannot duel; with one he can.
  auto s = duel_position(
      0, cards({"Anakin Skywalker, Podracer Pilot", "Obi-Wan Kenobi's Lightsaber"}),
      cards({"Darth Maul, Student of the Dark Side"}), copies(5, "1_2"), copies(5, "1_71"));
  std::vector<Action> options;
  s->legal_actions(0, options);
  CHECK(std::none_of(options.begin(), options.end(), [](Action a) {
    return a.kind == static_cast<uint8_t>(ActionKind::kInitiateDuel);
  }));
  auto jedi = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                            cards({"Darth Maul, Student of the Dark Side"}), copies(5, "1_2"),
                            copies(5, "1_71"));
  CHECK(legal(*jedi, 0, act(ActionKind::kInitiateDuel, 0, 1, 0)));
  CHECK(legal(*jedi, 0, act(ActionKind::kSkipDuel)));
}

TEST_CASE("Seed 003 Aurra Sing may use any Sith Lightsaber") {
  auto s = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor"}),
                         cards({"Aurra Sing, Trophy Collector", "Sith Lightsaber"}),
                         copies(5, "1_2"), copies(5, "1_71"));
  CHECK(legal(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0)));
  auto mercenary = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor"}),
                                 cards({"Aurra Sing, Mercenary", "Sith Lightsaber"}),
                                 copies(5, "1_2"), copies(5, "1_71"));
  CHECK_FALSE(legal(*mercenary, 1, act(ActionKind::kInitiateDuel, 0, 1, 0)));
}

namespace {

// Darth Maul with his Sith Lightsaber challenges the Light Side character at position 0.
std::unique_ptr<YoungJediState> maul_challenges(std::vector<uint16_t> light_play, int planet = 0) {
  auto s = duel_position(1, std::move(light_play),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         copies(20, "1_2"), copies(20, "1_71"));
  s->scenario_table().planet = planet;
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  return s;
}

}  // namespace

TEST_CASE("Seed 003 example 1: Qui-Gon may defend instead of R2-D2") {
  auto s = maul_challenges(cards({"R2-D2, Repair Droid", "Qui-Gon Jinn, Jedi Mentor"}));
  REQUIRE(s->table().phase == Phase::kChooseDefender);
  CHECK(s->legal_actions(0) ==
        std::vector<Action>{act(ActionKind::kDefend, 0), act(ActionKind::kDefend, 1)});
  apply_ok(*s, 0, act(ActionKind::kDefend, 1));
  CHECK(s->table().duel.character[0] == 1);
}

TEST_CASE("Seed 003 example 2: Qui-Gon may defend instead of a dueling Obi-Wan") {
  auto s = maul_challenges(cards({"Obi-Wan Kenobi, Jedi Student", "Qui-Gon Jinn, Jedi Mentor"}));
  REQUIRE(s->table().phase == Phase::kChooseDefender);
  CHECK(legal(*s, 0, act(ActionKind::kDefend, 0)));
  CHECK(legal(*s, 0, act(ActionKind::kDefend, 1)));
}

TEST_CASE("Seed 003 example 3: Anakin, Child of Prophecy may not take Anakin's place") {
  // Neither Anakin is a dueling character: with a dueling Obi-Wan in play the defender is asked,
  // and Child of Prophecy is not among the answers.
  auto s = maul_challenges(
      cards({"Anakin Skywalker, Podracer Pilot", "Anakin Skywalker, Child of Prophecy",
             "Obi-Wan Kenobi, Jedi Student"}),
      2);
  REQUIRE(s->table().phase == Phase::kChooseDefender);
  CHECK(legal(*s, 0, act(ActionKind::kDefend, 0)));
  CHECK(legal(*s, 0, act(ActionKind::kDefend, 2)));
  CHECK_FALSE(legal(*s, 0, act(ActionKind::kDefend, 1)));
  CHECK(s->apply(0, act(ActionKind::kDefend, 1)).code == RefusalCode::kIllegal);
  // Alone with the other Anakin, Podracer Pilot defends without being asked (Y21).
  auto alone = maul_challenges(
      cards({"Anakin Skywalker, Podracer Pilot", "Anakin Skywalker, Child of Prophecy"}), 2);
  CHECK(alone->table().phase == Phase::kAttack);
  CHECK(alone->table().duel.character[0] == 0);
}

TEST_CASE("Seed 003 example 4: Obi-Wan, Jedi Apprentice may take Obi-Wan, Jedi Padawan's place") {
  auto s = maul_challenges(
      cards({"Obi-Wan Kenobi, Jedi Padawan", "Obi-Wan Kenobi, Jedi Apprentice"}), 2);
  REQUIRE(s->table().phase == Phase::kChooseDefender);
  CHECK(legal(*s, 0, act(ActionKind::kDefend, 1)));
  apply_ok(*s, 0, act(ActionKind::kDefend, 1));
  CHECK(s->table().duel.character[0] == 1);
}

TEST_CASE("Seed 003 any opposing character may be chosen to defend") {
  auto s = duel_position(1, cards({"Captain Panaka, Security Commander"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         copies(20, "1_2"), copies(20, "1_71"));
  CHECK(legal(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0)));
}

TEST_CASE("Seed 003 the defender's weapon need not be a lightsaber") {
  auto s =
      maul_challenges(cards({"Captain Panaka, Security Commander", "1_45", "Sith Lightsaber"}));
  REQUIRE(s->table().phase == Phase::kDefenderWeapon);  // Panaka defends: no one to swap in
  // Light's Blaster (any character) is usable; the stray Dark-side-only card is not.
  CHECK(s->legal_actions(0) ==
        std::vector<Action>{act(ActionKind::kDefendUnarmed), act(ActionKind::kArmDefender, 1)});
  apply_ok(*s, 0, act(ActionKind::kArmDefender, 1));
  CHECK(s->table().duel.weapon[0] == 1);
  CHECK(s->table().phase == Phase::kAttack);
}

TEST_CASE("Refusals say why and leave the match unchanged") {
  auto s = duel_position(0, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kDeploy;
  t.counters_left = 2;
  t.players[0].hand = cards({"Qui-Gon Jinn, Jedi Mentor", "A Powerful Opponent"});
  const std::string before = s->serialize();
  auto unknown = s->apply(0, Action::make(99));
  CHECK(unknown.code == RefusalCode::kMalformed);
  CHECK(unknown.reason == "unknown action kind 99");
  CHECK(s->apply(0, Action::make(2, 0xff, 0xff)).code == RefusalCode::kMalformed);
  CHECK(s->apply(0, card_act(ActionKind::kDeploy, "Qui-Gon Jinn, Jedi Mentor")).reason ==
        "Qui-Gon Jinn, Jedi Mentor costs 6 counters and 2 are left (Y4)");
  CHECK(s->apply(0, card_act(ActionKind::kDeploy, "A Powerful Opponent")).reason ==
        "battle cards are not deployed (Y28)");
  CHECK(s->apply(0, card_act(ActionKind::kDeploy, "Sith Lightsaber")).reason ==
        "Sith Lightsaber is not in your hand");
  CHECK(s->apply(0, act(ActionKind::kTakeHit)).reason ==
        "not now: it is time to deploy or end deploying");
  CHECK(s->apply(1, act(ActionKind::kEndDeploy)).code == RefusalCode::kNotYourDecision);
  CHECK(s->serialize() == before);
}
