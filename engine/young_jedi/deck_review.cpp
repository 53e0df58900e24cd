#include "young_jedi/deck_review.hpp"

#include <charconv>

namespace duelhall::engine::young_jedi {
namespace {

constexpr std::array<std::string_view, 6> kColours = {"red",    "orange", "blue",
                                                      "yellow", "green",  "purple"};
constexpr int kMinCards = 40;
constexpr int kMaxCards = 60;
constexpr int kMaxPerColour = 10;
constexpr int kMaxWhitePerColour = 1;
constexpr int kMaxWhite = 6;
constexpr int kMaxCopiesPerLine = 60;

// The walk over a list: each rule is told once (at the card that first breaks it), and reading
// goes on past a problem so that the editor sees them all.
class Reader {
 public:
  explicit Reader(Side side) { review_.side = side; }

  void line(std::string_view text, int line_no) {
    int count = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
    std::string_view name = trim_line(text.substr(static_cast<size_t>(end - text.data())));
    if (ec != std::errc() || name.empty() || count < 1 || count > kMaxCopiesPerLine) {
      return problem(line_no, std::nullopt,
                     "Y1: line " + std::to_string(line_no) +
                         " is not '<count> <card id or title>': " + std::string(text));
    }
    auto index = find_card(name, review_.side);
    if (!index) {
      return problem(line_no, std::nullopt,
                     "Y1: no card '" + std::string(name) + "' in the catalogue");
    }
    const CardData& c = card(*index);
    if (!c.usable) {
      return problem(line_no, index,
                     "Y1: " + card_label(c) +
                         " lacks card data this ruleset needs, so it cannot be in a deck");
    }
    if (c.side != review_.side) {
      return problem(line_no, index,
                     "Y1: " + card_label(c) + " is a " + side_name(c.side) + " card in a " +
                         side_name(review_.side) + " deck");
    }
    for (int copy = 0; copy < count; ++copy) add(*index, line_no);
  }

  DeckReview finish() {
    if (review_.problems.empty()) review_.progress = kMaxCards + 1;
    if (static_cast<int>(review_.cards.size()) < kMinCards) {
      problem(0, std::nullopt,
              "Y1: a deck holds at least 40 cards; this list has " +
                  std::to_string(review_.cards.size()));
    }
    return std::move(review_);
  }

 private:
  void add(uint16_t index, int line_no) {
    const CardData& c = card(index);
    review_.cards.push_back(index);
    DeckStats& stats = review_.stats;
    ++stats.cards;
    if (stats.cards == kMaxCards + 1) {
      problem(line_no, index,
              "Y1: a deck holds at most 60 cards; " + card_label(c) + " is card 61");
    }
    for (size_t row = 0; row < 6; ++row) {
      if (c.dots[row] == 1 && ++stats.coloured[row] == kMaxPerColour + 1) {
        problem(line_no, index,
                "Y1: at most 10 cards per dot colour; " + card_label(c) + " is the 11th with a " +
                    std::string(kColours[row]) + " dot");
      }
      if (c.dots[row] == 2) {
        ++whites_;
        const bool row_over = ++stats.white[row] == kMaxWhitePerColour + 1;
        const bool deck_over = whites_ == kMaxWhite + 1;
        if (row_over || deck_over) {
          problem(line_no, index,
                  "Y1: white dots are wild, at most one per colour and six per deck; " +
                      card_label(c) + " has one too many in the " + std::string(kColours[row]) +
                      " row");
        }
      }
    }
    (c.type == CardType::kCharacter ? stats.characters
     : c.type == CardType::kWeapon  ? stats.weapons
                                    : stats.battle_cards)++;
    ++stats.destiny[c.destiny];
    if (c.type == CardType::kCharacter) ++stats.power[c.power];
    if (review_.problems.empty()) review_.progress = stats.cards;
  }

  // The progress stays at the cards accepted before the first problem (add moves it only
  // while there is none).
  void problem(int line_no, std::optional<uint16_t> index, std::string text) {
    review_.problems.push_back({line_no, index, std::move(text)});
  }

  DeckReview review_;
  int whites_ = 0;
};

}  // namespace

std::string side_name(Side side) {
  return side == Side::kLight ? "Light Side" : "Dark Side";
}

std::string card_label(const CardData& c) {
  return std::string(c.title) + " (" + c.id + ")";
}

std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string_view dot_colour(size_t row) {
  return row < kColours.size() ? kColours[row] : "";
}

DeckReview review_deck(std::string_view list, Side side) {
  Reader reader(side);
  int line_no = 0;
  while (!list.empty()) {
    const size_t nl = list.find('\n');
    const std::string_view line = trim_line(list.substr(0, nl));
    list = nl == std::string_view::npos ? std::string_view{} : list.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    reader.line(line, line_no);
  }
  return reader.finish();
}

DeckReview review_deck(std::string_view list) {
  // Y1 refuses only a list that breaks its rules, so a title both sides print ("Blaster") names
  // the printing of the side the whole list reads as: the list is read as each side's deck and
  // a legal reading kept (Light first, for a list legal as both: every line names a title of
  // both sides). With no legal reading, the one that accepted more cards is kept: its first
  // problem names the card that broke it.
  DeckReview light = review_deck(list, Side::kLight);
  if (light.problems.empty()) return light;
  DeckReview dark = review_deck(list, Side::kDark);
  if (dark.problems.empty() || dark.progress > light.progress) return dark;
  return light;
}

}  // namespace duelhall::engine::young_jedi
