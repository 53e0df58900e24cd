// How duels and games end: defeat, reshuffling, damage (Y6), the no-defeat case, deck victory
// and its tie (Y9), conceding.
#include "scenario.hpp"

using namespace yj_test;

TEST_CASE("Seed 003 defeat at hits equal to printed DAMAGE discards the character and its weapon") {
  auto s = duel_at(qui_gon(), maul(), copies(2, "1_2"), cards({"1_103", "1_71"}), copies(10, "1_2"),
                   copies(10, "1_71"));
  s->scenario_table().players[0].hits = 4;  // Qui-Gon's DAMAGE is 5
  s->scenario_table().players[0].dueling_pile = copies(3, "1_2");
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  const Table& t = s->table();
  CHECK(t.players[0].in_play.empty());
  // Dueling cards (2 in hand, 3 in the pile) went back into the deck before 5 damage.
  CHECK(t.players[0].draw.size() == 10 + 5 - 5);
  CHECK(t.players[0].discard.size() == 2 + 5);
  CHECK(t.players[0].discard[0] == id("Qui-Gon Jinn, Jedi Mentor"));
  CHECK(t.players[0].discard[1] == id("Qui-Gon Jinn's Lightsaber"));
  CHECK(t.players[0].dueling_hand.empty());
  CHECK(t.players[0].dueling_pile.empty());
  // Dark: its 2 dueling cards back in the deck, then its draw step.
  CHECK(t.players[1].draw.size() == 10 + 2 - 1);
  CHECK(t.players[1].hand.size() == 1);
  CHECK(t.players[0].hits == 0);
  CHECK(t.players[1].hits == 0);
  CHECK(t.active == 0);
  CHECK(t.phase == Phase::kDeploy);
  CHECK_FALSE(s->terminal());
}

TEST_CASE("Seed 003 dueling cards are reshuffled into the draw deck before the damage") {
  // Light's draw deck is empty, but its six dueling cards return first: 5 damage, no deck-out.
  auto s = duel_at(qui_gon(), maul(), copies(6, "1_2"), cards({"1_103"}), {}, copies(10, "1_71"));
  s->scenario_table().players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  apply_ok(*s, 0, act(ActionKind::kTakeHit));
  CHECK_FALSE(s->terminal());
  CHECK(s->table().players[0].draw.size() == 1);
  CHECK(s->table().players[0].discard.size() == 2 + 5);
}

TEST_CASE("Y6 damage discards that many cards from the top of the draw deck") {
  std::vector<uint16_t> deck = copies(8, "1_2");
  deck.push_back(id("Yoda, Jedi Philosopher"));  // top
  auto s = duel_at(qui_gon(), maul(), {}, cards({"1_103"}), deck, copies(10, "1_71"));
  s->scenario_table().players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  const Player& light = s->table().players[0];
  REQUIRE(light.discard.size() == 2 + 5);
  CHECK(light.discard[2] == id("Yoda, Jedi Philosopher"));
  CHECK(light.draw.size() == 4);
}

TEST_CASE("Seed 003 DAMAGE changes apply when the damage is taken") {
  // Darth Sidious, Sith Manipulator: DAMAGE 6, one less while using any Sith Lightsaber.
  auto s = duel_at(qui_gon(), cards({"Darth Sidious, Sith Manipulator", "Sith Lightsaber"}),
                   cards({"1_20"}), {}, copies(10, "1_2"), copies(20, "1_71"));
  s->scenario_table().to_act = 0;
  s->scenario_table().players[1].hits = 5;
  apply_ok(*s, 0, card_act(ActionKind::kAttack, "1_20"));
  CHECK(s->table().players[1].discard.size() == 2 + 5);
  CHECK(s->table().players[1].draw.size() == 20 - 5 - 1);
  // Obi-Wan Kenobi, Jedi Avenger adds 2 to the DAMAGE of each character he defeats.
  auto a = duel_at(cards({"Obi-Wan Kenobi, Jedi Avenger", "Obi-Wan Kenobi's Lightsaber"}), maul(),
                   cards({"1_20"}), {}, copies(10, "1_2"), copies(20, "1_71"));
  a->scenario_table().to_act = 0;
  a->scenario_table().players[1].hits = 4;
  apply_ok(*a, 0, card_act(ActionKind::kAttack, "1_20"));
  CHECK(a->table().players[1].discard.size() == 2 + 7);
}

TEST_CASE("Seed 003 both out of dueling cards with unequal hits: the most hit takes that many") {
  auto s = duel_at(qui_gon(), maul(), {}, cards({"1_103"}), copies(10, "1_2"), copies(10, "1_71"));
  s->scenario_table().players[1].hits = 3;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  // Light 1 hit, Dark 3: Dark takes 3 damage; nobody is defeated.
  const Table& t = s->table();
  CHECK(t.players[1].discard.size() == 3);
  CHECK(t.players[1].draw.size() == 10 + 1 - 3 - 1);  // dueling card back, damage, draw step
  CHECK(t.players[0].draw.size() == 10);
  CHECK(t.players[0].in_play.size() == 2);
  CHECK(t.players[1].in_play.size() == 2);
  CHECK(t.players[0].hits == 0);
  CHECK(t.players[1].hits == 0);
}

TEST_CASE("Seed 003 both out of dueling cards with equal hits: nobody takes damage") {
  auto s = duel_at(qui_gon(), maul(), {}, cards({"1_103"}), copies(10, "1_2"), copies(10, "1_71"));
  s->scenario_table().players[1].hits = 1;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  CHECK(s->table().players[0].discard.empty());
  CHECK(s->table().players[1].discard.empty());
  CHECK(s->table().players[0].draw.size() == 10);
}

TEST_CASE("Seed 003 drawing the last card into a dueling hand is no deck victory") {
  auto s = duel_position(0, qui_gon(), maul(), copies(10, "1_2"), copies(20, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
  apply_ok(*s, 1, act(ActionKind::kArmDefender, 1));
  CHECK(s->table().players[0].draw.empty());
  CHECK(s->table().players[0].dueling_hand.size() == 10);
  CHECK_FALSE(s->terminal());
  CHECK(s->table().phase == Phase::kAttack);
}

TEST_CASE("Y9 a player who must draw from an empty draw deck loses") {
  auto s = duel_position(0, {}, {}, {}, copies(10, "1_71"));
  s->scenario_table().phase = Phase::kDeploy;
  apply_ok(*s, 0, act(ActionKind::kEndDeploy));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->outcome().reason == "deck victory");
  CHECK(s->pending().empty());
}

TEST_CASE("Y9 a player who must discard damage from an empty draw deck loses") {
  auto s = duel_at(qui_gon(), maul(), {}, cards({"1_103"}), copies(3, "1_2"), copies(10, "1_71"));
  s->scenario_table().players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
}

TEST_CASE("Y9 drawing the last card of the draw deck loses at once") {
  auto s = duel_position(0, {}, {}, copies(1, "1_2"), copies(10, "1_71"));
  s->scenario_table().phase = Phase::kDeploy;
  apply_ok(*s, 0, act(ActionKind::kEndDeploy));  // no duel possible: the draw step
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->outcome().reason == "deck victory");
  CHECK(s->table().players[0].hand.size() == 1);
  CHECK(s->table().turn == 3);  // Dark's turn never began
}

TEST_CASE("Y9 discarding the last card of the draw deck as damage loses at once") {
  // Qui-Gon falls: 5 damage from a deck of exactly 5.
  auto s = duel_at(qui_gon(), maul(), {}, cards({"1_103"}), copies(5, "1_2"), copies(10, "1_71"));
  s->scenario_table().players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->table().players[0].discard.size() == 2 + 5);
}

TEST_CASE("Y9 a deck victory is immediate: the winner's draw step after the damage never comes") {
  // Qui-Gon falls with 3 cards left against 5 damage: Light loses there, and Dark does not draw.
  auto s = duel_at(qui_gon(), maul(), {}, cards({"1_103"}), copies(3, "1_2"), copies(10, "1_71"));
  s->scenario_table().players[0].hits = 4;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "1_103"));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->outcome().reason == "deck victory");
  CHECK(s->table().players[0].discard.size() == 2 + 3);
  CHECK(s->table().players[1].hand.empty());
  CHECK(s->table().players[1].draw.size() == 11);  // its dueling card back, nothing drawn
}

TEST_CASE("Y9 a deck victory is immediate: a won game does not become a tie") {
  // Dark's last card is To The Death, in its dueling hand; used, it goes to the discard pile.
  // Qui-Gon falls and Light cannot discard 5 from a deck of 2: Light loses there, before Dark's
  // draw step would find an empty deck.
  auto s = duel_at(qui_gon(), maul(), {}, cards({"To The Death"}), copies(2, "1_2"), {});
  s->scenario_table().players[0].hits = 2;
  apply_ok(*s, 1, card_act(ActionKind::kAttack, "To The Death"));
  REQUIRE(s->table().phase == Phase::kDuelingText);
  apply_ok(*s, 1, act(ActionKind::kUseDuelingText));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->outcome().reason == "deck victory");
}

TEST_CASE("Y9 both players drawing their last card in the same fight is a tie") {
  // No Dark card draws destiny in this catalogue, so the table is hand-built: both duelists are
  // Anakin, whose destiny draw must be made, and each deck holds one card. Both draws are made
  // before the decks are checked.
  auto s = duel_position(1, qui_gon(), maul(), copies(1, "1_2"), copies(1, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  REQUIRE(s->table().phase == Phase::kDefenderWeapon);
  s->scenario_table().players[0].in_play[0] = id("Anakin Skywalker, Podracer Pilot");
  s->scenario_table().players[1].in_play[0] = id("Anakin Skywalker, Podracer Pilot");
  apply_ok(*s, 0, act(ActionKind::kDefendUnarmed));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::first_n(2));
  CHECK(s->outcome().reason == "both decked out in the same fight: a tie");
  CHECK(s->table().players[0].hand.size() == 1);
  CHECK(s->table().players[1].hand.size() == 1);
  CHECK(s->table().players[0].dueling_hand.empty());  // nothing later happened
}

TEST_CASE("Y9 a player may concede in their deploy step") {
  auto s = duel_position(0, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  s->scenario_table().phase = Phase::kDeploy;
  CHECK_FALSE(legal(*s, 1, act(ActionKind::kConcede)));
  apply_ok(*s, 0, act(ActionKind::kConcede));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(1));
  CHECK(s->apply(1, act(ActionKind::kEndDeploy)).code == RefusalCode::kMatchOver);
}
