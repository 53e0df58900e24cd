// Ruling Y10: hands, dueling hands and deck order are hidden; deck sizes are public; a discard
// pile shows its top card and its size only; cards in play and played in a duel are face up.
#include "scenario.hpp"

using namespace yj_test;

namespace {

std::unique_ptr<YoungJediState> position() {
  auto s = duel_position(0, cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         cards({"1_2", "5_7", "5_14"}), cards({"1_71", "5_45", "5_46"}));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.duel = Duel{{0, 0}, {1, 1}, 0, kAbsent, kAbsent, kAbsent};
  for (Player& p : t.players) {
    p.hand = cards({"1_20", "1_103"});
    p.dueling_hand = cards({"5_16", "5_53"});
    p.dueling_pile = cards({"5_22"});
    p.discard = cards({"1_11", "2_11"});
  }
  return s;
}

std::map<std::string, std::string> views(const State& s) {
  return {{"seat 0", s.view(Viewer::of_seat(0))},
          {"seat 1", s.view(Viewer::of_seat(1))},
          {"spectator", s.view(Viewer::spectator())},
          {"omniscient", s.view(Viewer::omniscient())}};
}

// Which viewers' views change when `change` is applied to the table.
std::set<std::string> who_sees(void (*change)(Table&)) {
  auto s = position();
  auto before = views(*s);
  change(s->scenario_table());
  auto after = views(*s);
  std::set<std::string> changed;
  for (const auto& [viewer, bytes] : before) {
    if (after[viewer] != bytes) changed.insert(viewer);
  }
  return changed;
}

}  // namespace

TEST_CASE("Y10 a hand is seen only by its owner") {
  CHECK(who_sees([](Table& t) { t.players[0].hand[0] = id("1_2"); }) ==
        std::set<std::string>{"seat 0", "omniscient"});
}

TEST_CASE("Y10 a dueling hand is seen only by its owner") {
  CHECK(who_sees([](Table& t) { t.players[1].dueling_hand[1] = id("1_71"); }) ==
        std::set<std::string>{"seat 1", "omniscient"});
}

TEST_CASE("Y10 deck order is hidden from everyone, its size from nobody") {
  CHECK(who_sees([](Table& t) { std::swap(t.players[0].draw[0], t.players[0].draw[2]); }) ==
        std::set<std::string>{"omniscient"});
  CHECK(who_sees([](Table& t) { t.players[0].draw.pop_back(); }).size() == 4);
}

TEST_CASE("Y10 a discard pile shows only its top card and its size") {
  CHECK(who_sees([](Table& t) { t.players[0].discard[0] = id("5_8"); }) ==
        std::set<std::string>{"omniscient"});
  CHECK(who_sees([](Table& t) { t.players[0].discard[1] = id("5_8"); }).size() == 4);
}

TEST_CASE("Y10 cards in play and in a dueling pile are face up") {
  CHECK(who_sees([](Table& t) { t.players[1].dueling_pile[0] = id("5_45"); }).size() == 4);
  CHECK(who_sees([](Table& t) { t.players[1].in_play[1] = id("2_106"); }).size() == 4);
}

TEST_CASE("Y10 a drawn card is named only to its drawer") {
  auto s = duel_position(0, {}, {}, cards({"1_2", "5_7"}), copies(3, "1_71"));
  s->scenario_table().phase = Phase::kDeploy;
  std::vector<Event> events;
  REQUIRE(s->apply(0, act(ActionKind::kEndDeploy), &events).ok());
  REQUIRE(events.size() == 1);
  CHECK(events[0].text_for(Viewer::of_seat(0)) == "@0 drew Yoda, Jedi Philosopher (destiny 5)");
  CHECK(events[0].text_for(Viewer::of_seat(1)) == "@0 drew a card");
  CHECK(events[0].text_for(Viewer::spectator()) == "@0 drew a card");
}

TEST_CASE("Y10 resampling keeps each viewer's view and the inventory") {
  auto s = position();
  Rng rng(seed_from_number(3));
  for (Viewer viewer : {Viewer::of_seat(0), Viewer::of_seat(1), Viewer::spectator()}) {
    auto redrawn = s->clone();
    redrawn->resample_hidden(viewer, rng);
    CHECK(redrawn->view(viewer) == s->view(viewer));
    CHECK(redrawn->inventory() == s->inventory());
  }
}

TEST_CASE("Y10 Anakin's destiny card is seen by both players and stays known in the hand") {
  std::vector<uint16_t> light_deck = copies(10, "1_2");
  light_deck.push_back(id("Yoda, Jedi Philosopher"));
  auto s = duel_position(1, cards({"Anakin Skywalker, Podracer Pilot"}),
                         cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"}),
                         light_deck, copies(20, "1_71"));
  s->scenario_table().players[0].hand = cards({"5_7", "1_20"});
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  CHECK(s->table().players[0].known_hand == cards({"5_7"}));
  // Redrawing what Dark cannot see keeps the known Yoda in Light's hand.
  Rng rng(seed_from_number(11));
  for (int i = 0; i < 20; ++i) {
    auto redrawn = s->clone();
    redrawn->resample_hidden(Viewer::of_seat(1), rng);
    const auto& hand = static_cast<YoungJediState&>(*redrawn).table().players[0].hand;
    CHECK(std::count(hand.begin(), hand.end(), id("5_7")) >= 1);
    CHECK(redrawn->view(Viewer::of_seat(1)) == s->view(Viewer::of_seat(1)));
  }
  // Of two Yodas, one known: after one is deployed a Yoda is still known to be in the hand;
  // after the other, none is.
  Table& t = s->scenario_table();
  t = Table{};
  t.phase = Phase::kDeploy;
  t.players[0].hand = cards({"5_7", "5_7"});
  t.players[0].known_hand = cards({"5_7"});
  t.players[0].draw = copies(3, "1_2");
  t.players[1].draw = copies(3, "1_71");
  apply_ok(*s, 0, card_act(ActionKind::kDeploy, "5_7"));
  CHECK(s->table().players[0].known_hand == cards({"5_7"}));
  s->scenario_table().counters_left = kDeployCounters;
  apply_ok(*s, 0, card_act(ActionKind::kDeploy, "5_7"));
  CHECK(s->table().players[0].known_hand.empty());
}
