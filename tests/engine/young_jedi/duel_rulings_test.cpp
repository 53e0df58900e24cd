// The rules document's own rulings on the duel (docs/rules/young-jedi-duel.md, Y18 onwards), one
// scenario or more each.
#include "scenario.hpp"

using namespace yj_test;

namespace {

std::vector<uint16_t> maul() {
  return cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"});
}

}  // namespace

TEST_CASE("Y21 decisions with one answer are not asked") {
  // No duel possible (no lightsaber): ending the deploy step goes straight to the draw.
  auto none = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor"}), maul(), copies(5, "1_2"),
                            copies(5, "1_71"));
  none->scenario_table().phase = Phase::kDeploy;
  apply_ok(*none, 0, act(ActionKind::kEndDeploy));
  CHECK(none->table().active == 1);
  CHECK(none->table().players[0].hand.size() == 1);

  // A defender with nobody to swap in is not asked who defends; with a weapon it is asked which.
  auto armed = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                             maul(), copies(20, "1_2"), copies(20, "1_71"));
  apply_ok(*armed, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(armed->table().phase == Phase::kDefenderWeapon);
  CHECK(armed->table().to_act == 0);
  CHECK(armed->table().duel.character[0] == 0);

  // ... and with no usable weapon either, it defends unarmed and the duel begins.
  auto unarmed = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor"}), maul(), copies(20, "1_2"),
                               copies(20, "1_71"));
  apply_ok(*unarmed, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(unarmed->table().phase == Phase::kAttack);
  CHECK(unarmed->table().to_act == 1);
  CHECK(unarmed->table().duel.weapon[0] == kAbsent);
  CHECK(unarmed->table().players[0].dueling_hand.size() == 6 + 2);  // no weapon dots; +2 vs Maul

  // A defender with a dueling character to swap in is asked, even with an obvious answer.
  auto two = duel_position(1, cards({"R2-D2, Repair Droid", "Qui-Gon Jinn, Jedi Mentor"}), maul(),
                           copies(20, "1_2"), copies(20, "1_71"));
  apply_ok(*two, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(two->table().phase == Phase::kChooseDefender);
  CHECK(two->table().to_act == 0);
}

TEST_CASE("Y21 a player holding dueling cards is asked to block even with no card that can") {
  auto s = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         maul(), copies(10, "1_2"), copies(10, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel = Duel{{0, 0}, {1, 1}, 1, kAbsent, kAbsent, kAbsent};
  t.players[0].dueling_hand = copies(2, "1_2");  // destiny 4: cannot block a destiny-2 attack
  t.players[1].dueling_hand = cards({"1_103", "1_103"});
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  CHECK(s->table().phase == Phase::kBlock);
  CHECK(s->table().to_act == 0);
  CHECK(s->table().players[0].hits == 0);
  CHECK(s->legal_actions(0) == std::vector<Action>{act(ActionKind::kTakeHit)});
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  CHECK(s->table().players[0].hits == 1);
  // Light attacks; Dark holds a card but none of destiny 4: asked all the same.
  apply_ok(*s, 0, card_act(ActionKind::kAttack, "1_2"));
  CHECK(s->table().phase == Phase::kBlock);
  CHECK(s->table().to_act == 1);
  CHECK(s->table().players[1].hits == 0);
  // Dark takes it and attacks with its last card; Light takes that too and attacks with its
  // last: Dark, empty-handed, takes the hit without being asked.
  apply_ok(*s, 1, act(ActionKind::kTakeHit));
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  CHECK(s->table().players[0].hits == 2);
  REQUIRE(s->table().players[1].dueling_hand.empty());
  apply_ok(*s, 0, card_act(ActionKind::kAttack, "1_2"));
  // Both hands are now empty, so the duel ended at 2 hits each (no damage) and the turn passed.
  CHECK(s->table().phase == Phase::kDeploy);
  CHECK(s->table().active == 0);
  CHECK(s->table().players[0].discard.empty());
  CHECK(s->table().players[1].discard.empty());
}

TEST_CASE("Y27 who can use a weapon: names, any Jedi, Podracer pilots, each box's dots") {
  auto dots = [](const char* weapon, const char* user) {
    return weapon_power_dots(card(id(weapon)), card(id(user)));
  };
  // Qui-Gon Jinn's Lightsaber: Qui-Gon Jinn by name, 2 dots; "any other Jedi", 0 dots.
  CHECK(dots("Qui-Gon Jinn's Lightsaber", "Qui-Gon Jinn, Jedi Mentor") == 2);
  CHECK(dots("Qui-Gon Jinn's Lightsaber", "Obi-Wan Kenobi, Jedi Student") == 0);
  CHECK_FALSE(dots("Qui-Gon Jinn's Lightsaber", "Captain Panaka, Security Commander"));
  CHECK_FALSE(dots("Qui-Gon Jinn's Lightsaber", "Anakin Skywalker, Padawan"));
  // Ki-Adi-Mundi's Jedi Lightsaber gives any other Jedi 1 dot.
  CHECK(dots("Jedi Lightsaber, Constructed by Ki-Adi-Mundi", "Yoda, Jedi Master") == 1);
  // Gasgano's Podracer: "any other Podracer pilot"; Sebulba, Bad-Tempered Dug is one (FAQ).
  CHECK(dots("Gasgano's Podracer", "Gasgano, Podracer Pilot") == 3);
  CHECK(dots("Gasgano's Podracer", "Ben Quadinaros, Podracer Pilot") == 0);
  CHECK(dots("Gasgano's Podracer", "Sebulba, Bad-Tempered Dug") == 0);
  CHECK_FALSE(dots("Gasgano's Podracer", "Watto, Slave Owner"));
  // A player's weapons are used by their own characters only: the Blaster of each side is "any
  // character", of that side.
  CHECK(dots("1_45", "Qui-Gon Jinn, Jedi Mentor") == 0);
  CHECK_FALSE(dots("1_45", "Darth Maul, Student of the Dark Side"));
  CHECK_FALSE(dots("Sith Lightsaber", "Qui-Gon Jinn, Jedi Mentor"));
}

TEST_CASE("Y27 Anakin, Tested By The Jedi Council is no Jedi") {
  for (const char* anakin : {"6_P9", "7_19"}) {
    INFO(anakin);
    CHECK_FALSE(matches("kw:jedi", card(id(anakin))));
    CHECK_FALSE(card(id(anakin)).dueling);
    // No "any other Jedi" lightsaber for him.
    CHECK_FALSE(weapon_power_dots(card(id("Obi-Wan Kenobi's Lightsaber")), card(id(anakin))));
  }
  CHECK(matches("kw:jedi", card(id("Obi-Wan Kenobi, Jedi Student"))));
  // Aurra Sing, Trophy Collector's bonus "when she fights any Jedi" does not apply to him, and
  // Yoda, Jedi Instructor's bonus to "any other Jedi" does not either.
  std::vector<uint16_t> light_deck = copies(10, "1_2");
  light_deck.push_back(id("Yoda, Jedi Philosopher"));  // Anakin's destiny draw: 5
  auto s = duel_position(1, cards({"6_P9", "Obi-Wan Kenobi's Lightsaber", "Yoda, Jedi Instructor"}),
                         cards({"Aurra Sing, Trophy Collector", "Sith Lightsaber"}), light_deck,
                         copies(20, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  // Light may swap in Yoda, a dueling character, but keeps Anakin; he has no usable weapon.
  REQUIRE(s->table().phase == Phase::kChooseDefender);
  apply_ok(*s, 0, act(ActionKind::kDefend, 0));
  REQUIRE(s->table().phase == Phase::kAttack);
  CHECK(s->table().players[1].dueling_hand.size() == 5);  // her printed power, no dots
  CHECK(s->table().players[0].dueling_hand.size() == 5);  // power 0 + destiny 5
}
