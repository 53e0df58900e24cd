#include <catch2/catch.hpp>

#include "core/registry.hpp"
#include "young_jedi/deck.hpp"

using namespace duelhall::engine;
using namespace duelhall::engine::young_jedi;

namespace {

std::string forty(const std::string& line) {
  return "40 " + line + "\n";
}

}  // namespace

TEST_CASE("Y1 every ready deck validates and can duel") {
  int light = 0;
  int dark = 0;
  for (const ReadyDeck& ready : ready_decks()) {
    INFO(ready.name);
    DeckResult result = parse_deck(ready.list);
    REQUIRE(result.deck);
    CHECK(result.deck->side == ready.side);
    CHECK(result.deck->cards.size() >= 40);
    CHECK(result.deck->cards.size() <= 60);
    (ready.side == Side::kLight ? light : dark)++;
    // Able to duel: a dueling character with a lightsaber it can use, and dueling texts.
    bool can_duel = false;
    bool has_dueling_text = false;
    for (uint16_t c : result.deck->cards) {
      has_dueling_text |= card(c).dueling_text != DuelingText::kNone &&
                          card(c).dueling_text != DuelingText::kNotRecorded;
      if (!card(c).dueling) continue;
      for (uint16_t w : result.deck->cards) {
        can_duel |= is_lightsaber(card(w)) && weapon_power_dots(card(w), card(c)).has_value();
      }
    }
    CHECK(can_duel);
    CHECK(has_dueling_text);
  }
  CHECK(light >= 2);
  CHECK(dark >= 2);
}

TEST_CASE("Y1 a deck list names cards by id or title, one count per line") {
  auto by_title = parse_deck(
      "# comment\n\n10 Sith Lightsaber\n10 Darth Maul, Sith Apprentice\n"
      "10 Change In Tactics\n10 Battle Droid: Infantry, AAT Division\n");
  REQUIRE(by_title.deck);
  CHECK(by_title.deck->side == Side::kDark);
  CHECK(by_title.deck->cards.size() == 40);
  auto by_id = parse_deck("10 1_107\n10 1_71\n10 5_45\n10 1_103\n");
  REQUIRE(by_id.deck);
  CHECK(by_id.deck->cards == by_title.deck->cards);
}

TEST_CASE("Y1 refusals name the rule and the card") {
  auto unknown = parse_deck("40 Darth Vader, Dark Lord\n");
  CHECK(unknown.error == "Y1: no card 'Darth Vader, Dark Lord' in the catalogue");
  auto malformed = parse_deck("forty Sith Lightsaber\n");
  CHECK(malformed.error.find("Y1: line 1") == 0);
  auto too_few = parse_deck("10 1_107\n10 1_71\n10 5_45\n");
  CHECK(too_few.error == "Y1: a deck holds at least 40 cards; this list has 30");
  auto too_many = parse_deck("10 1_107\n10 1_71\n10 5_45\n10 1_103\n10 1_97\n11 3_71\n");
  CHECK(too_many.error ==
        "Y1: a deck holds at most 60 cards; Darth Maul, Dark Lord of the Sith (3_71) "
        "is card 61");
  auto mixed = parse_deck("10 1_107\n1 Obi-Wan Kenobi, Jedi Student\n");
  CHECK(mixed.error ==
        "Y1: Obi-Wan Kenobi, Jedi Student (5_1) is a Light Side card in a Dark Side deck");
  auto colour = parse_deck(forty("Sith Lightsaber"));
  CHECK(colour.error ==
        "Y1: at most 10 cards per dot colour; Sith Lightsaber (1_107) is the 11th "
        "with a orange dot");
  auto white = parse_deck("2 Use Caution\n");
  CHECK(white.error.find("Y1: white dots are wild") == 0);
  CHECK(white.error.find("Use Caution (5_54)") != std::string::npos);
  auto missing = parse_deck("1 1_40\n");
  CHECK(missing.error ==
        "Y1: Eopie (1_40) lacks card data this ruleset needs, so it cannot be in a deck");
}

TEST_CASE(
    "Y1 seat 0 plays the Light Side and seat 1 the Dark Side; empty options are ready decks") {
  Registry registry = builtin_registry();
  std::string dark = ready_decks()[2].list;
  std::string light = ready_decks()[1].list;
  auto swapped = registry.create("young_jedi", 2, Seed{}, {}, {dark, light});
  REQUIRE(swapped.state == nullptr);
  CHECK(swapped.error.find("seat 0: Y1: this seat plays the Light Side") == 0);
  auto fine = registry.create("young_jedi", 2, Seed{}, {}, {light, ""});
  CHECK(fine.state != nullptr);
  auto bad = registry.create("young_jedi", 2, Seed{}, {}, {"", "3 1_107\n"});
  REQUIRE(bad.state == nullptr);
  CHECK(bad.error == "seat 1: Y1: a deck holds at least 40 cards; this list has 3");
}

TEST_CASE("Y1: a Light deck whose first line is 'Blaster' is read as the Light deck it is") {
  const std::string list = "2 Blaster\n1 Blaster Rifle\n20 2_5\n20 7_20\n";
  auto light = parse_deck(list);
  INFO(light.error);
  REQUIRE(light.deck);
  CHECK(light.deck->side == Side::kLight);
  CHECK(light.deck->cards.front() == *find_card("1_45"));  // the Light printing
  CHECK(card(light.deck->cards[2]).side == Side::kLight);
  Registry registry = builtin_registry();
  CHECK(registry.create("young_jedi", 2, Seed{}, {}, {list, ""}).state != nullptr);
  // The same titles open a Dark deck just as well.
  auto dark = parse_deck("2 Blaster\n1 Blaster Rifle\n40 6_P14\n");
  REQUIRE(dark.deck);
  CHECK(dark.deck->side == Side::kDark);
  // Refused only with no legal reading, naming the card that breaks the better one.
  auto mixed = parse_deck("2 Blaster\n20 2_5\n20 5_31\n");
  CHECK(mixed.error ==
        "Y1: Darth Maul, Student of the Dark Side (5_31) is a Dark Side card in a "
        "Light Side deck");
}
