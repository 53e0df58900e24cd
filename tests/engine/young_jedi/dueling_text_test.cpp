// The "When dueling" texts of ruling Y7 and seed 003's rule that they need a lightsaber.
#include "scenario.hpp"

using namespace yj_test;

namespace {

// Darth Maul (Sith Lightsaber, or `dark_weapon`) attacks Qui-Gon (his lightsaber) with
// `attack`; Light holds only destiny-1 cards, so it cannot block and takes the hit.
std::unique_ptr<YoungJediState> maul_hits_with(const char* attack,
                                               const char* dark_weapon = "Sith Lightsaber") {
  auto s = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Darth Maul, Student of the Dark Side", dark_weapon}),
                         copies(10, "1_2"), copies(10, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel.initiator = 1;
  t.duel.character = {0, 0};
  t.duel.weapon = {1, 1};
  t.players[0].dueling_hand = copies(3, "Qui-Gon Jinn, Jedi Master");
  t.players[1].dueling_hand = cards({attack, "1_71"});
  apply_ok(*s, 1, card_act(ActionKind::kAttack, attack));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  return s;
}

}  // namespace

TEST_CASE("Y7 this attack does one extra hit (Power Of The Sith)") {
  auto s = maul_hits_with("Power Of The Sith");
  CHECK(s->table().players[0].hits == 2);
  CHECK(s->table().phase == Phase::kAttack);  // not a "may": nothing to decide
  CHECK(s->table().to_act == 0);
}

TEST_CASE("Seed 003 dueling texts work only for a character using a lightsaber") {
  // Darth Maul armed with a Blaster, not a lightsaber: a plain single hit.
  auto s = maul_hits_with("Power Of The Sith", "1_119");
  CHECK(s->table().players[0].hits == 1);
  auto d = maul_hits_with("To The Death", "1_119");
  CHECK(d->table().phase == Phase::kAttack);  // no dueling text offered
}

TEST_CASE("Y7 you may draw one card for your dueling hand (Dangerous Encounter)") {
  auto s = maul_hits_with("Dangerous Encounter");
  REQUIRE(s->table().phase == Phase::kDuelingText);
  CHECK(s->table().to_act == 1);
  apply_ok(*s, 1, act(ActionKind::kUseDuelingText));
  CHECK(s->table().players[1].dueling_hand.size() == 2);
  CHECK(s->table().players[1].draw.size() == 9);
  CHECK(s->table().to_act == 0);
}

TEST_CASE("Y7 a dueling text may be declined") {
  auto s = maul_hits_with("Dangerous Encounter");
  apply_ok(*s, 1, act(ActionKind::kDeclineDuelingText));
  CHECK(s->table().players[1].dueling_hand.size() == 1);
  CHECK(s->table().players[1].draw.size() == 10);
  CHECK(s->table().phase == Phase::kAttack);
  CHECK(s->table().to_act == 0);
}

TEST_CASE(
    "Y7 you may discard this card to draw two cards for your dueling hand (Darth Maul Defiant)") {
  auto s = maul_hits_with("Darth Maul Defiant");
  apply_ok(*s, 1, act(ActionKind::kUseDuelingText));
  const Player& dark = s->table().players[1];
  CHECK(dark.discard == cards({"Darth Maul Defiant"}));
  CHECK(dark.dueling_pile.empty());
  CHECK(dark.dueling_hand.size() == 3);
  CHECK(dark.draw.size() == 8);
}

TEST_CASE("Y7 you may remove one hit from your character (Change In Tactics)") {
  auto s = duel_position(1, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         copies(10, "1_2"), copies(10, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel = Duel{{0, 0}, {1, 1}, 1, kAbsent, kAbsent, kAbsent};
  t.players[0].dueling_hand = copies(2, "1_2");
  t.players[1].dueling_hand = cards({"Change In Tactics"});
  t.players[1].hits = 2;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "Change In Tactics"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  REQUIRE(s->table().phase == Phase::kDuelingText);
  apply_ok(*s, 1, act(ActionKind::kUseDuelingText));
  CHECK(s->table().players[1].hits == 1);
  CHECK(s->table().players[0].hits == 1);
}

TEST_CASE("Y7 removing a hit is not offered when your character has none") {
  auto s = maul_hits_with("Change In Tactics");
  CHECK(s->table().phase == Phase::kAttack);
}

TEST_CASE("Y7 you may discard this card for this attack to do two extra hits (To The Death)") {
  auto s = maul_hits_with("To The Death");
  apply_ok(*s, 1, act(ActionKind::kUseDuelingText));
  CHECK(s->table().players[0].hits == 3);
  CHECK(s->table().players[1].discard == cards({"To The Death"}));
}

TEST_CASE(
    "Y7 Light Side texts: A Powerful Opponent, Critical Confrontation, You Are Strong With The "
    "Force") {
  auto s = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         copies(10, "1_2"), copies(10, "1_71"));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 0;
  t.duel = Duel{{0, 0}, {1, 1}, 0, kAbsent, kAbsent, kAbsent};
  t.players[0].dueling_hand =
      cards({"A Powerful Opponent", "Critical Confrontation", "You Are Strong With The Force"});
  t.players[1].dueling_hand = copies(4, "1_71");  // destiny 1: never blocks these
  apply_ok(*s, 0, card_act(ActionKind::kAttack, "A Powerful Opponent"));
  apply_ok(*s, 1, act(ActionKind::kTakeHit));
  CHECK(s->table().players[1].hits == 2);
  // Dark attacks back with a destiny-1 card; Light takes it and attacks again.
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  apply_ok(*s, 0, card_act(ActionKind::kAttack, "Critical Confrontation"));
  apply_ok(*s, 1, act(ActionKind::kTakeHit));
  apply_ok(*s, 0, act(ActionKind::kUseDuelingText));
  CHECK(s->table().players[0].dueling_hand.size() == 2);
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  apply_ok(*s, 0, card_act(ActionKind::kAttack, "You Are Strong With The Force"));
  apply_ok(*s, 1, act(ActionKind::kTakeHit));
  // Hits 4 of Maul's DAMAGE 5: not yet defeated, so the text is offered.
  REQUIRE(s->table().phase == Phase::kDuelingText);
  apply_ok(*s, 0, act(ActionKind::kUseDuelingText));
  CHECK(s->table().players[0].discard == cards({"You Are Strong With The Force"}));
  CHECK(s->table().players[0].dueling_hand.size() == 3);
}
