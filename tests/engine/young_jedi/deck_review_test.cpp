// The deck builder's check (ruling Y1, white dots Y11): every problem of a list at once, each
// with its rule, line and card; a deck's figures; and lists written back that read the same.
#include <catch2/catch.hpp>
#include <random>

#include "harness/random_play.hpp"
#include "young_jedi/deck.hpp"
#include "young_jedi/deck_review.hpp"

using namespace duelhall::engine::young_jedi;

namespace {

std::vector<std::string> texts(const DeckReview& review) {
  std::vector<std::string> out;
  for (const auto& p : review.problems) out.push_back(p.text);
  return out;
}

// A random legal deck of `side`: random usable cards of that side, each kept only when the
// list stays within every rule but the minimum size, up to a random size of 40 to 60.
Deck random_legal_deck(Side side, std::mt19937& rng) {
  std::vector<uint16_t> pool;
  for (size_t i = 0; i < catalogue().size(); ++i) {
    if (catalogue()[i].usable && catalogue()[i].side == side) pool.push_back(uint16_t(i));
  }
  const size_t size = std::uniform_int_distribution<size_t>(40, 60)(rng);
  Deck deck{side, {}};
  for (int tries = 0; deck.cards.size() < size && tries < 20000; ++tries) {
    deck.cards.push_back(pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)]);
    const DeckReview review = review_deck(write_deck(deck), side);
    const bool only_short = review.problems.size() == 1 && review.problems[0].line == 0;
    if (!review.problems.empty() && !only_short) deck.cards.pop_back();
  }
  return deck;
}

}  // namespace

TEST_CASE(
    "Y1 the deck review names every problem with its line and card, the first as parse_deck") {
  const std::string list =
      "# a Dark deck with five problems\n"
      "10 Sith Lightsaber\n"
      "forty Darth Maul\n"
      "1 Darth Vader, Dark Lord\n"
      "1 Obi-Wan Kenobi, Jedi Student\n"
      "1 Sith Lightsaber\n"
      "1 1_40\n";
  const DeckReview review = review_deck(list, Side::kDark);
  REQUIRE(review.problems.size() == 6);
  CHECK(review.problems[0].line == 3);
  CHECK(review.problems[0].text.find("Y1: line 3 is not") == 0);
  CHECK(review.problems[1].line == 4);
  CHECK(review.problems[1].text == "Y1: no card 'Darth Vader, Dark Lord' in the catalogue");
  CHECK(review.problems[2].line == 5);
  CHECK(review.problems[2].card == find_card("5_1"));
  CHECK(review.problems[2].text.find("is a Light Side card in a Dark Side deck") !=
        std::string::npos);
  CHECK(review.problems[3].line == 6);
  CHECK(review.problems[3].card == find_card("1_107"));
  CHECK(review.problems[3].text ==
        "Y1: at most 10 cards per dot colour; Sith Lightsaber (1_107) is the 11th with a "
        "orange dot");
  CHECK(review.problems[4].line == 7);
  CHECK(review.problems[4].text.find("Eopie (1_40) lacks card data") != std::string::npos);
  CHECK(review.problems[5].line == 0);
  CHECK(review.problems[5].text == "Y1: a deck holds at least 40 cards; this list has 11");
  CHECK(parse_deck(list, Side::kDark).error == review.problems[0].text);
  CHECK(review.cards.size() == 11);  // the refused lines are not in it
}

TEST_CASE("Y1 a rule broken many times is told once, at the card that first breaks it") {
  // 15 Sith Lightsabers: five over the orange row's ten, one problem.
  const DeckReview colour = review_deck("15 Sith Lightsaber\n25 1_71\n", Side::kDark);
  int orange = 0;
  for (const auto& text : texts(colour)) orange += text.find("orange dot") != std::string::npos;
  CHECK(orange == 1);
  CHECK(texts(colour).front() ==
        "Y1: at most 10 cards per dot colour; Sith Lightsaber (1_107) is the 11th with a orange "
        "dot");
  CHECK(colour.progress == 10);
  const DeckReview big =
      review_deck("10 1_107\n10 1_71\n10 5_45\n10 1_103\n10 1_97\n15 3_71\n", Side::kDark);
  int sixty = 0;
  for (const auto& text : texts(big)) sixty += text.find("at most 60 cards") != std::string::npos;
  CHECK(sixty == 1);
  REQUIRE(!big.problems.empty());
  CHECK(big.problems[0].text ==
        "Y1: a deck holds at most 60 cards; Darth Maul, Dark Lord of the Sith (3_71) is card 61");
  CHECK(big.problems[0].line == 6);
  CHECK(big.progress == 60);
}

TEST_CASE("Y11 white dots: one per colour row and six per deck, each row's excess told once") {
  // Use Caution has four white dots: a second copy puts a second white in each of those rows
  // (and an eighth in the deck).
  const uint16_t caution = *find_card("Use Caution");
  int white_rows = 0;
  for (uint8_t d : card(caution).dots) white_rows += d == 2;
  REQUIRE(white_rows == 4);
  const DeckReview two = review_deck("2 Use Caution\n", Side::kDark);
  REQUIRE(two.problems.size() == 5);  // four rows, then the deck's size
  for (int i = 0; i < 4; ++i) {
    CHECK(two.problems[i].text.find("Y1: white dots are wild") == 0);
    CHECK(two.problems[i].card == caution);
  }
  int whites = 0;
  for (int n : two.stats.white) whites += n;
  CHECK(whites == 8);
  CHECK(parse_deck("2 Use Caution\n").error == two.problems[0].text);
  // One copy is within the white-dot rules: only the size is wrong.
  CHECK(review_deck("1 Use Caution\n", Side::kDark).problems.size() == 1);
}

TEST_CASE("Y1 a legal deck's review has no problem and the figures of its cards") {
  for (const ReadyDeck& ready : ready_decks()) {
    INFO(ready.name);
    const DeckReview review = review_deck(ready.list);
    CHECK(review.problems.empty());
    CHECK(review.side == ready.side);
    const DeckStats& s = review.stats;
    CHECK(s.cards == int(review.cards.size()));
    int characters = 0, weapons = 0, battles = 0;
    std::array<int, 6> coloured{};
    std::map<int, int> destiny, power;
    for (uint16_t c : review.cards) {
      const CardData& d = card(c);
      (d.type == CardType::kCharacter ? characters
       : d.type == CardType::kWeapon  ? weapons
                                      : battles)++;
      for (size_t row = 0; row < 6; ++row) coloured[row] += d.dots[row] == 1;
      ++destiny[d.destiny];
      if (d.type == CardType::kCharacter) ++power[d.power];
    }
    CHECK(s.characters == characters);
    CHECK(s.weapons == weapons);
    CHECK(s.battle_cards == battles);
    CHECK(s.coloured == coloured);
    CHECK(s.destiny == destiny);
    CHECK(s.power == power);
    CHECK(characters > 0);
    for (int n : s.coloured) CHECK(n <= 10);
  }
}

TEST_CASE("Y1 a deck written out reads back as the same deck: ready decks and random legal ones") {
  for (const ReadyDeck& ready : ready_decks()) {
    INFO(ready.name);
    const Deck deck = *parse_deck(ready.list).deck;
    const std::string text = write_deck(deck);
    const DeckResult back = parse_deck(text, deck.side);
    REQUIRE(back.deck);
    CHECK(back.deck->cards == deck.cards);
    CHECK(parse_deck(text).deck->side == deck.side);
  }
  std::mt19937 rng(20261128);
  // Every deck in the plain build; the sanitizer builds read a share (DUELHALL_RANDOM_PLAY_SHARE).
  const int decks = duelhall::testing::scaled_games(200);
  for (int i = 0; i < decks; ++i) {
    const Deck deck = random_legal_deck(i % 2 == 0 ? Side::kLight : Side::kDark, rng);
    const std::string text = write_deck(deck);
    INFO(text);
    REQUIRE(deck.cards.size() >= 40);
    const DeckResult back = parse_deck(text, deck.side);
    REQUIRE(back.deck);
    CHECK(back.deck->cards == deck.cards);
    CHECK(back.deck->side == deck.side);
  }
}
