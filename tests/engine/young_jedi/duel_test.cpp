// The duel itself: dueling hands, Anakin, DAMAGE 0, attacks, blocks and hits (seed 003, Y5).
#include "scenario.hpp"

using namespace yj_test;

namespace {

// Qui-Gon (Light, with his lightsaber) against Darth Maul (Dark, with a Sith Lightsaber) in the
// middle of a duel that Dark initiated: `attacker` is to attack next.
std::unique_ptr<YoungJediState> mid_duel(int attacker, std::vector<uint16_t> light_hand,
                                         std::vector<uint16_t> dark_hand,
                                         std::vector<uint16_t> light_deck = copies(10, "1_2"),
                                         std::vector<uint16_t> dark_deck = copies(10, "1_71")) {
  auto s = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         std::move(light_deck), std::move(dark_deck));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = attacker;
  t.duel.initiator = 1;
  t.duel.character = {0, 0};
  t.duel.weapon = {1, 1};
  t.players[0].dueling_hand = std::move(light_hand);
  t.players[1].dueling_hand = std::move(dark_hand);
  return s;
}

}  // namespace

TEST_CASE("Seed 003 dueling hand size is power plus weapon dots plus bonuses") {
  // Qui-Gon, Jedi Mentor: power 6, his lightsaber's 2 dots, +2 dueling Darth Maul (Y8) = 10.
  // Darth Maul, Student of the Dark Side: 6, Sith Lightsaber 1 dot, +2 dueling any Jedi = 9.
  auto s = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         copies(20, "1_2"), copies(20, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
  apply_ok(*s, 1, act(ActionKind::kArmDefender, 1));
  const Table& t = s->table();
  CHECK(t.players[0].dueling_hand.size() == 10);
  CHECK(t.players[1].dueling_hand.size() == 9);
  CHECK(t.players[0].draw.size() == 10);
  CHECK(t.phase == Phase::kAttack);
  CHECK(t.to_act == 0);  // the initiator attacks first
}

TEST_CASE("Seed 003 an unarmed defender draws only its printed power") {
  auto s = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Aurra Sing, Mercenary", "Sith Lightsaber"}), copies(20, "1_2"),
                         copies(20, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
  // Aurra Sing, Mercenary may not use the Sith Lightsaber: no weapon choice is left.
  CHECK(s->table().phase == Phase::kAttack);
  CHECK(s->table().players[1].dueling_hand.size() == 5);
  CHECK(s->table().players[0].dueling_hand.size() == 8);  // no bonus against a non-Sith
}

TEST_CASE("Seed 003 Yoda, Jedi Instructor adds a power bonus to another Jedi dueling here") {
  auto s = duel_position(0,
                         cards({"Obi-Wan Kenobi, Jedi Apprentice", "Obi-Wan Kenobi's Lightsaber",
                                "Yoda, Jedi Instructor"}),
                         cards({"Rune Haako, Neimoidian Advisor"}), copies(20, "1_2"),
                         copies(20, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
  // Obi-Wan 5 + his lightsaber's 2 dots + Yoda's bonus 2.
  CHECK(s->table().players[0].dueling_hand.size() == 9);
}

TEST_CASE("Y23 Yoda, Jedi Instructor's bonus goes to another Jedi, once per copy, never to Yoda") {
  auto power = [](std::vector<uint16_t> light_play) {
    auto s = duel_position(0, std::move(light_play), cards({"Rune Haako, Neimoidian Advisor"}),
                           copies(20, "1_2"), copies(20, "1_71"));
    apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
    REQUIRE(s->table().phase == Phase::kAttack);
    return s->table().players[0].dueling_hand.size();
  };
  // Obi-Wan 5 + his lightsaber's 2 dots, and 2 for each Yoda, Jedi Instructor in play.
  CHECK(power(cards({"Obi-Wan Kenobi, Jedi Apprentice", "Obi-Wan Kenobi's Lightsaber",
                     "Yoda, Jedi Instructor", "7_24"})) == 11);
  // A dueling Yoda is not "another Jedi": Yoda, Jedi Master (4, no dots with Obi-Wan's
  // lightsaber) gets nothing from Yoda, Jedi Instructor, nor does the Instructor from a second
  // copy of himself.
  CHECK(power(cards(
            {"Yoda, Jedi Master", "Obi-Wan Kenobi's Lightsaber", "Yoda, Jedi Instructor"})) == 4);
  CHECK(power(cards({"Yoda, Jedi Instructor", "Obi-Wan Kenobi's Lightsaber", "7_24"})) == 4);
}

TEST_CASE("Seed 003 Anakin draws a destiny for his power and keeps that card in his hand") {
  std::vector<uint16_t> light_deck = copies(10, "1_2");
  light_deck.push_back(id("Yoda, Jedi Philosopher"));  // the top card: destiny 5
  auto s = duel_position(1, cards({"Anakin Skywalker, Podracer Pilot"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         light_deck, copies(20, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  const Table& t = s->table();
  CHECK(t.players[0].hand == cards({"Yoda, Jedi Philosopher"}));
  CHECK(t.players[0].dueling_hand.size() == 5);  // printed power 0 + destiny 5
  CHECK(t.players[1].dueling_hand.size() == 7);  // Anakin is no Jedi: no bonus for Maul
}

TEST_CASE("Seed 003 Artoo's DAMAGE 0: he is simply discarded and no hands are drawn") {
  auto s = duel_position(1, cards({"R2-D2, Repair Droid"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         copies(10, "1_2"), copies(10, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  const Table& t = s->table();
  CHECK(t.players[0].in_play.empty());
  CHECK(t.players[0].discard == cards({"R2-D2, Repair Droid"}));
  CHECK(t.players[0].draw.size() == 10);  // no damage, no dueling hand
  CHECK(t.players[1].draw.size() == 9);   // Dark's draw step
  CHECK(t.players[1].dueling_hand.empty());
  CHECK(t.active == 0);
  CHECK(t.phase == Phase::kDeploy);
}

TEST_CASE("Seed 003 a block needs the same destiny number and becomes the next attack") {
  auto s = mid_duel(1, cards({"Critical Confrontation", "Qui-Gon Jinn, Jedi Master"}),
                    cards({"Dangerous Encounter", "Battle Droid: Infantry, AAT Division"}));
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "Dangerous Encounter"));  // destiny 5
  CHECK(s->table().phase == Phase::kBlock);
  CHECK(s->legal_actions(0) ==
        std::vector<Action>{act(ActionKind::kTakeHit),
                            card_act(ActionKind::kBlock, "Critical Confrontation")});
  auto refused = s->apply(0, card_act(ActionKind::kBlock, "Qui-Gon Jinn, Jedi Master"));
  CHECK(refused.code == RefusalCode::kIllegal);
  apply_ok(*s, 0, card_act(ActionKind::kBlock, "Critical Confrontation"));
  // Now Dark must answer Light's block, and has no destiny-5 card left.
  CHECK(s->table().phase == Phase::kBlock);
  CHECK(s->table().to_act == 1);
  CHECK(s->legal_actions(1) == std::vector<Action>{act(ActionKind::kTakeHit)});
}

TEST_CASE("Seed 003 an unblocked attack scores a hit and the hit player attacks next") {
  auto s = mid_duel(1, cards({"Qui-Gon Jinn, Jedi Master", "Qui-Gon Jinn, Jedi Master"}),
                    cards({"Battle Droid: Infantry, AAT Division", "1_71"}));
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "Battle Droid: Infantry, AAT Division"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  CHECK(s->table().players[0].hits == 1);
  CHECK(s->table().phase == Phase::kAttack);
  CHECK(s->table().to_act == 0);
}

TEST_CASE("Y5 a player without dueling cards cannot block, the other goes on alone") {
  auto s = mid_duel(1, {}, cards({"1_103", "1_103"}));
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  // No decision for Light: the hit is scored and Dark, alone with cards, attacks again.
  CHECK(s->table().players[0].hits == 1);
  CHECK(s->table().phase == Phase::kAttack);
  CHECK(s->table().to_act == 1);
}

namespace {

// Dueling-hand sizes once `light` (with its weapon at position 1) is challenged by `dark`.
std::pair<size_t, size_t> hand_sizes(std::vector<uint16_t> light, std::vector<uint16_t> dark) {
  auto s =
      duel_position(1, std::move(light), std::move(dark), copies(30, "1_2"), copies(30, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  if (s->table().phase == Phase::kDefenderWeapon) apply_ok(*s, 0, act(ActionKind::kArmDefender, 1));
  return {s->table().players[0].dueling_hand.size(), s->table().players[1].dueling_hand.size()};
}

}  // namespace

TEST_CASE("Y14 Obi-Wan, Jedi Student's bonus applies when he duels Darth Maul or Darth Sidious") {
  auto obi_wan = cards({"Obi-Wan Kenobi, Jedi Student", "Obi-Wan Kenobi's Lightsaber"});
  // 5 + 2 lightsaber dots + 2 against Maul.
  CHECK(hand_sizes(obi_wan, cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}))
            .first == 9);
  // Against Aurra Sing: no bonus.
  CHECK(hand_sizes(obi_wan, cards({"Aurra Sing, Trophy Collector", "Sith Lightsaber"})).first == 7);
}

TEST_CASE("Y15 Aurra Sing uses a Sith Lightsaber without power dots") {
  // Aurra Sing, Trophy Collector: 5, no dots, +2 fighting a Jedi.
  auto sizes = hand_sizes(cards({"Obi-Wan Kenobi, Jedi Student", "Obi-Wan Kenobi's Lightsaber"}),
                          cards({"Aurra Sing, Trophy Collector", "Sith Lightsaber"}));
  CHECK(sizes.second == 7);
  // With the lightsaber she stole, her own box gives 2 dots.
  auto stolen =
      hand_sizes(cards({"Obi-Wan Kenobi, Jedi Student", "Obi-Wan Kenobi's Lightsaber"}),
                 cards({"Aurra Sing, Trophy Collector", "Jedi Lightsaber, Stolen by Aurra Sing"}));
  CHECK(stolen.second == 9);
}

TEST_CASE("Y8 power bonuses for named weapons: Obi-Wan, Jedi Knight with Obi-Wan's Lightsaber") {
  // 5 + 2 dots + 2 for using Obi-Wan's Lightsaber (the data's short title, matched to the card).
  auto sizes = hand_sizes(cards({"Obi-Wan Kenobi, Jedi Knight", "Obi-Wan Kenobi's Lightsaber"}),
                          cards({"Aurra Sing, Trophy Collector", "Sith Lightsaber"}));
  CHECK(sizes.first == 9);
}

namespace {

// Aurra Sing, Formidable Adversary (Dark) defends unarmed against Qui-Gon, who has 4 hits; her
// attack defeats him. Dark's draw deck holds `dark_deck` cards.
std::unique_ptr<YoungJediState> aurra_defeats_qui_gon(int dark_deck) {
  auto s = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Aurra Sing, Formidable Adversary", "Sith Lightsaber"}),
                         copies(10, "1_2"), copies(dark_deck, "1_71"));
  Table& t = s->scenario_table();
  t.active = 0;
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel = Duel{{0, 0}, {1, kAbsent}, 0, kAbsent, kAbsent, kAbsent};
  t.players[1].dueling_hand = cards({"1_103"});
  t.players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  return s;
}

}  // namespace

TEST_CASE("Y9 Aurra Sing, Formidable Adversary's draw is offered to her after the damage") {
  auto s = aurra_defeats_qui_gon(10);
  CHECK(s->table().players[0].discard.size() == 2 + 5);
  REQUIRE(s->table().phase == Phase::kOptionalDraw);
  CHECK(s->pending() == SeatMask::only(1));
  CHECK(s->legal_actions(1) ==
        std::vector<Action>{act(ActionKind::kDrawCard), act(ActionKind::kDeclineDraw)});
  CHECK(s->table().players[0].hand.empty());  // Light's draw step waits for her answer
  apply_ok(*s, 1, act(ActionKind::kDrawCard));
  CHECK(s->table().players[1].hand.size() == 1);
  CHECK(s->table().players[1].draw.size() == 10 + 1 - 1);
  CHECK(s->table().players[0].hand.size() == 1);  // Light's own draw step
  CHECK(s->table().phase == Phase::kDeploy);
}

TEST_CASE("Y9 an optional draw is never made for her: declining her last card keeps her in") {
  // After the duel Dark's deck holds its dueling card only: drawing it would lose (Y9).
  auto s = aurra_defeats_qui_gon(0);
  REQUIRE(s->table().players[1].draw.size() == 1);
  REQUIRE(s->table().phase == Phase::kOptionalDraw);
  apply_ok(*s, 1, act(ActionKind::kDeclineDraw));
  CHECK_FALSE(s->terminal());
  CHECK(s->table().players[1].hand.empty());
  CHECK(s->table().players[1].draw.size() == 1);
  // Taken, the same draw is her deck victory at once: Light's draw step never comes.
  auto t = aurra_defeats_qui_gon(0);
  apply_ok(*t, 1, act(ActionKind::kDrawCard));
  REQUIRE(t->terminal());
  CHECK(t->outcome().winners == SeatMask::only(0));
  CHECK(t->table().players[0].hand.empty());
}
