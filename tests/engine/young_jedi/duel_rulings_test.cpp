// The rules document's own rulings on the duel (docs/rules/young-jedi-duel.md, Y18 onwards), one
// scenario or more each.
#include "scenario.hpp"

using namespace yj_test;

namespace {

// Mid-duel, Dark (active, initiator) attacks next with `dark_hand` (Qui-Gon against Maul); Light
// holds `light_hand` and has `light_hits` hits.
std::unique_ptr<YoungJediState> dark_attacks(std::vector<uint16_t> light_hand,
                                             std::vector<uint16_t> dark_hand, int light_hits,
                                             std::vector<uint16_t> light_deck,
                                             std::vector<uint16_t> dark_deck) {
  auto s = duel_at(qui_gon(), maul(), std::move(light_hand), std::move(dark_hand),
                   std::move(light_deck), std::move(dark_deck));
  s->scenario_table().players[0].hits = light_hits;
  return s;
}

}  // namespace

TEST_CASE("Y18 DAMAGE 0 is checked once the defender is settled, before the defender's weapon") {
  // Light swaps Qui-Gon in for the challenged R2-D2: no DAMAGE 0 character fights, and R2 stays.
  auto swapped =
      duel_position(1, cards({"R2-D2, Repair Droid", "Qui-Gon Jinn, Jedi Mentor", "1_45"}), maul(),
                    copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*swapped, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  apply_ok(*swapped, 0, act(ActionKind::kDefend, 1));
  CHECK(swapped->table().phase == Phase::kDefenderWeapon);
  CHECK(swapped->table().players[0].in_play.size() == 3);
  CHECK(swapped->table().players[0].discard.empty());

  // R2-D2 keeps the defence: he alone is discarded, before any weapon is chosen, so the Blaster
  // he could use stays in play; no damage, no dueling hands; Dark's turn goes on to its draw.
  auto kept = duel_position(1, cards({"R2-D2, Repair Droid", "1_45"}), maul(), copies(10, "1_2"),
                            copies(10, "1_71"));
  apply_ok(*kept, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  const Table& t = kept->table();
  CHECK(t.players[0].discard == cards({"R2-D2, Repair Droid"}));
  CHECK(t.players[0].in_play == cards({"1_45"}));
  CHECK(t.players[1].in_play == maul());
  CHECK(t.players[0].draw.size() == 10);
  CHECK(t.players[1].draw.size() == 9);
  CHECK(t.players[1].hand.size() == 1);
  CHECK(t.active == 0);
  CHECK(t.phase == Phase::kDeploy);
}

TEST_CASE("Y19 dueling draws never deck out but Anakin's destiny draw does") {
  // A dueling hand from a short deck takes what there is.
  auto short_deck = duel_position(0, qui_gon(), maul(), copies(2, "1_2"), copies(20, "1_71"));
  apply_ok(*short_deck, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
  apply_ok(*short_deck, 1, act(ActionKind::kArmDefender, 1));
  CHECK_FALSE(short_deck->terminal());
  CHECK(short_deck->table().players[0].dueling_hand.size() == 2);
  CHECK(short_deck->table().players[0].draw.empty());

  // Drawing two by Darth Maul Defiant from a deck of one draws one and goes on.
  auto text = dark_attacks(copies(3, "1_2"), cards({"Darth Maul Defiant", "1_71"}), 0,
                           copies(10, "1_2"), copies(1, "1_71"));
  apply_ok(*text, 1, card_act(ActionKind::kAttack, "Darth Maul Defiant"));
  apply_ok(*text, 0, act(ActionKind::kTakeHit));
  REQUIRE(text->table().phase == Phase::kDuelingText);
  apply_ok(*text, 1, act(ActionKind::kUseDuelingText));
  CHECK_FALSE(text->terminal());
  CHECK(text->table().players[1].dueling_hand.size() == 2);
  CHECK(text->table().players[1].draw.empty());

  // Anakin's destiny draw from an empty deck loses the game (Y9).
  auto anakin =
      duel_position(1, cards({"Anakin Skywalker, Podracer Pilot"}), maul(), {}, copies(20, "1_71"));
  apply_ok(*anakin, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  REQUIRE(anakin->terminal());
  CHECK(anakin->outcome().winners == SeatMask::only(1));
  CHECK(anakin->outcome().reason == "deck victory");
}

TEST_CASE("Y20 a 'may' text is offered only when it can do something and the duel goes on") {
  // Dangerous Encounter's draw with an empty draw deck: not offered.
  auto empty = dark_attacks(copies(3, "1_2"), cards({"Dangerous Encounter", "1_71"}), 0,
                            copies(10, "1_2"), {});
  apply_ok(*empty, 1, card_act(ActionKind::kAttack, "Dangerous Encounter"));
  apply_ok(*empty, 0, act(ActionKind::kTakeHit));
  CHECK(empty->table().phase == Phase::kAttack);
  CHECK(empty->table().to_act == 0);
  // The same with a card to draw: offered.
  auto full = dark_attacks(copies(3, "1_2"), cards({"Dangerous Encounter", "1_71"}), 0,
                           copies(10, "1_2"), copies(1, "1_71"));
  apply_ok(*full, 1, card_act(ActionKind::kAttack, "Dangerous Encounter"));
  apply_ok(*full, 0, act(ActionKind::kTakeHit));
  CHECK(full->table().phase == Phase::kDuelingText);

  // To The Death on the hit that defeats Qui-Gon (DAMAGE 5): the duel is over, nothing offered,
  // and the damage is his printed 5, no extra hits.
  auto over = dark_attacks(copies(3, "1_2"), cards({"To The Death", "1_71"}), 4, copies(10, "1_2"),
                           copies(10, "1_71"));
  apply_ok(*over, 1, card_act(ActionKind::kAttack, "To The Death"));
  apply_ok(*over, 0, act(ActionKind::kTakeHit));
  const Table& t = over->table();
  CHECK(t.phase == Phase::kDeploy);
  CHECK(t.active == 0);
  CHECK(t.players[0].discard.size() == 2 + 5);
  CHECK(std::count(t.players[1].discard.begin(), t.players[1].discard.end(), id("To The Death")) ==
        0);
}

TEST_CASE("Y21 decisions with one answer are not asked") {
  // No duel possible (no lightsaber): ending the deploy step goes straight to the draw.
  auto none = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor"}), maul(), copies(5, "1_2"),
                            copies(5, "1_71"));
  none->scenario_table().phase = Phase::kDeploy;
  apply_ok(*none, 0, act(ActionKind::kEndDeploy));
  CHECK(none->table().active == 1);
  CHECK(none->table().players[0].hand.size() == 1);

  // A defender with nobody to swap in is not asked who defends; with a weapon it is asked which.
  auto armed = duel_position(1, qui_gon(), maul(), copies(20, "1_2"), copies(20, "1_71"));
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
  // Light's dueling cards have destiny 1: they cannot block a destiny-3 attack.
  auto s = duel_at(qui_gon(), maul(), copies(2, "1_2"), cards({"1_103", "1_103"}),
                   copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  CHECK(s->table().phase == Phase::kBlock);
  CHECK(s->table().to_act == 0);
  CHECK(s->table().players[0].hits == 0);
  CHECK(s->legal_actions(0) == std::vector<Action>{act(ActionKind::kTakeHit)});
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  CHECK(s->table().players[0].hits == 1);
  // Light attacks; Dark holds a card but none of destiny 1: asked all the same.
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

TEST_CASE("Y24 a defeated character goes to the discard pile before its weapon") {
  // The weapon deployed before the character: the order of the pile is still character, weapon.
  auto s = duel_position(1, cards({"Qui-Gon Jinn's Lightsaber", "Qui-Gon Jinn, Jedi Mentor"}),
                         maul(), {}, copies(10, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel = Duel{{1, 0}, {0, 1}, 1, kAbsent, kAbsent, kAbsent};
  t.players[1].dueling_hand = cards({"1_103"});
  t.players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  // Light's deck is empty: no damage lands on top, and the game is lost (Y9), so the pile is
  // exactly as the defeat left it, with the weapon as its visible top card.
  REQUIRE(s->terminal());
  CHECK(s->table().players[0].discard ==
        cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}));
  CHECK(s->table().players[0].in_play.empty());
}

TEST_CASE("Y25 the defender may swap in any dueling character, and only a dueling character") {
  auto s = duel_position(1,
                         cards({"R2-D2, Repair Droid", "Captain Panaka, Security Commander",
                                "Qui-Gon Jinn, Jedi Mentor", "Obi-Wan Kenobi, Jedi Student"}),
                         maul(), copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(s->legal_actions(0) == std::vector<Action>{act(ActionKind::kDefend, 0),
                                                   act(ActionKind::kDefend, 2),
                                                   act(ActionKind::kDefend, 3)});
  // Another version of the chosen character may come in only as a dueling character.
  auto anakin =
      duel_position(1,
                    cards({"Anakin Skywalker, Podracer Pilot",
                           "Anakin Skywalker, Child of Prophecy", "Obi-Wan Kenobi, Jedi Padawan"}),
                    maul(), copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*anakin, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(anakin->legal_actions(0) ==
        std::vector<Action>{act(ActionKind::kDefend, 0), act(ActionKind::kDefend, 2)});
  auto obi_wan =
      duel_position(1, cards({"Obi-Wan Kenobi, Jedi Padawan", "Obi-Wan Kenobi, Jedi Apprentice"}),
                    maul(), copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*obi_wan, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(obi_wan->legal_actions(0) ==
        std::vector<Action>{act(ActionKind::kDefend, 0), act(ActionKind::kDefend, 1)});
}
