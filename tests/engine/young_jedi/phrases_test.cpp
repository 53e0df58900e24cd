// The phrase book: its lists are the catalogue's titles and the planets, in the numbering the
// views use, so a client renders a phrase's card and planet from the same indices.
#include <catch2/catch.hpp>

#include "young_jedi/catalogue.hpp"
#include "young_jedi/phrases.hpp"
#include "young_jedi/table.hpp"

using namespace duelhall::engine;
using namespace duelhall::engine::young_jedi;

TEST_CASE("young_jedi phrase book lists every card's title by catalogue index") {
  const PhraseList* cards = phrase_book().list("card");
  REQUIRE(cards != nullptr);
  REQUIRE(cards->entries.size() == catalogue().size());
  for (size_t i = 0; i < catalogue().size(); ++i) {
    CHECK(cards->entries[i] == catalogue()[i].title);
  }
}

TEST_CASE("young_jedi phrase book lists the planets by Table::planet") {
  const PhraseList* planets = phrase_book().list("planet");
  REQUIRE(planets != nullptr);
  REQUIRE(planets->entries.size() == static_cast<size_t>(kPlanets));
  for (int p = 0; p < kPlanets; ++p) CHECK(planets->entries[p] == kPlanetNames[p]);
}

TEST_CASE("young_jedi names a card by title and destiny, as its action labels do") {
  const auto maul = find_card("Darth Maul, Sith Apprentice");
  REQUIRE(maul);
  CHECK(render(phrase_book(), named(Phrase(kSaidAttackedWith).seat(1), *maul)) ==
        "@1 attacked with Darth Maul, Sith Apprentice (destiny 1)");
}
