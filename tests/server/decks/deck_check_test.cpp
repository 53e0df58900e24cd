// The deck editor's check as the server answers it (server/decks/deck_check.*): legality through
// the engine's own reading for both sides and at each seat, white dots (Y11), every problem with
// its rule, line and card, the figures, and export (DeckCheck.list) round trips for the ready
// decks and for random legal decks.
#include <catch2/catch.hpp>

#include "decks/deck_check.hpp"
#include "young_jedi/deck.hpp"
#include "young_jedi/deck_review.hpp"

using namespace duelhall;
using server::check_deck_list;
namespace yj = duelhall::engine::young_jedi;

namespace {

// A small generator of the test's own (xorshift), so the decks are the same everywhere.
struct Draw {
  uint32_t x = 2026'11'28;
  size_t below(size_t n) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x % n;
  }
};

// Random usable cards of `side`, each kept while the list breaks no rule but the minimum size,
// up to 40 to 60 cards.
yj::Deck random_legal_deck(yj::Side side, Draw& draw) {
  std::vector<uint16_t> pool;
  for (size_t i = 0; i < yj::catalogue().size(); ++i) {
    if (yj::catalogue()[i].usable && yj::catalogue()[i].side == side) {
      pool.push_back(static_cast<uint16_t>(i));
    }
  }
  const size_t size = 40 + draw.below(21);
  yj::Deck deck{side, {}};
  for (int tries = 0; deck.cards.size() < size && tries < 20000; ++tries) {
    deck.cards.push_back(pool[draw.below(pool.size())]);
    const yj::DeckReview review = yj::review_deck(yj::write_deck(deck), side);
    const bool only_short = review.problems.size() == 1 && review.problems[0].line == 0;
    if (!review.problems.empty() && !only_short) deck.cards.pop_back();
  }
  return deck;
}

// The list exported by a legal check reads back as the same deck, and checks the same.
void check_round_trip(const std::string& list) {
  const DeckCheck first = check_deck_list(list, -1);
  REQUIRE(first.legal());
  REQUIRE_FALSE(first.list().empty());
  const DeckCheck again = check_deck_list(first.list(), -1);
  REQUIRE(again.legal());
  CHECK(again.side() == first.side());
  CHECK(again.list() == first.list());
  CHECK(again.figures().SerializeAsString() == first.figures().SerializeAsString());
  const auto before = yj::parse_deck(list);
  const auto after = yj::parse_deck(first.list());
  REQUIRE(before.deck);
  REQUIRE(after.deck);
  CHECK(after.deck->cards == before.deck->cards);
  CHECK(after.deck->side == before.deck->side);
}

}  // namespace

TEST_CASE("decks: the ready decks are legal at their own seat and refused at the other one") {
  for (const yj::ReadyDeck& ready : yj::ready_decks()) {
    INFO(ready.name);
    const bool light = ready.side == yj::Side::kLight;
    const DeckCheck any = check_deck_list(ready.list, -1);
    CHECK(any.legal());
    CHECK(any.side() == (light ? "light" : "dark"));
    CHECK(any.figures().cards() >= 40);
    CHECK(any.figures().cards() ==
          any.figures().characters() + any.figures().weapons() + any.figures().battle_cards());
    CHECK(check_deck_list(ready.list, light ? 0 : 1).legal());
    const DeckCheck wrong = check_deck_list(ready.list, light ? 1 : 0);
    CHECK_FALSE(wrong.legal());
    REQUIRE(wrong.problems_size() == 1);
    CHECK(wrong.problems(0).rule() == "Y1");
    CHECK_FALSE(wrong.problems(0).card_id().empty());
    CHECK(wrong.problems(0).text().find(light ? "plays the Dark Side" : "plays the Light Side") !=
          std::string::npos);
  }
}

TEST_CASE("decks: every problem of a list comes with its rule, line and card, as the engine's") {
  const std::string list =
      "10 Sith Lightsaber\n"
      "forty Darth Maul\n"
      "1 Obi-Wan Kenobi, Jedi Student\n"
      "1 Sith Lightsaber\n";
  const DeckCheck check = check_deck_list(list, 1);
  const yj::DeckReview review = yj::review_deck(list, yj::Side::kDark);
  CHECK_FALSE(check.legal());
  REQUIRE(check.problems_size() == static_cast<int>(review.problems.size()));
  for (int i = 0; i < check.problems_size(); ++i) {
    CHECK(check.problems(i).text() == review.problems[static_cast<size_t>(i)].text);
    CHECK(check.problems(i).line() == static_cast<uint32_t>(review.problems[static_cast<size_t>(i)].line));
    CHECK(check.problems(i).rule() == "Y1");
  }
  CHECK(check.problems(0).line() == 2);
  CHECK(check.problems(2).card_id() == "1_107");
  CHECK(check.problems(2).card_title() == "Sith Lightsaber");
  CHECK(check.list().empty());  // nothing to export from an illegal list
  CHECK(server::first_problem(check)->find("line 2: Y1:") == 0);
}

TEST_CASE("decks: white dots (Y11) are checked and counted per colour row") {
  const DeckCheck two = check_deck_list("2 Use Caution\n", 1);
  REQUIRE(two.problems_size() == 5);  // four rows over one white dot, then the size
  for (int i = 0; i < 4; ++i) {
    CHECK(two.problems(i).text().find("white dots are wild") != std::string::npos);
    CHECK(two.problems(i).card_title() == "Use Caution");
  }
  uint32_t white = 0;
  for (const DotCount& dots : two.figures().dots()) white += dots.white();
  CHECK(white == 8);
  CHECK(two.figures().dots_size() == 6);
}

TEST_CASE("decks: export round trips for the four ready decks and random legal decks") {
  REQUIRE(yj::ready_decks().size() == 4);
  for (const yj::ReadyDeck& ready : yj::ready_decks()) {
    INFO(ready.name);
    check_round_trip(ready.list);
  }
  Draw draw;
  for (int i = 0; i < 100; ++i) {
    const yj::Deck deck = random_legal_deck(i % 2 == 0 ? yj::Side::kLight : yj::Side::kDark, draw);
    REQUIRE(deck.cards.size() >= 40);
    const std::string list = yj::write_deck(deck);
    INFO(list);
    check_round_trip(list);
  }
}
