#include "young_jedi/deck.hpp"

#include <array>
#include <charconv>

namespace duelhall::engine::young_jedi {
namespace {

constexpr std::array<const char*, 6> kColours = {"red",    "orange", "blue",
                                                 "yellow", "green",  "purple"};
constexpr int kMinCards = 40;
constexpr int kMaxCards = 60;
constexpr int kMaxPerColour = 10;
constexpr int kMaxWhitePerColour = 1;
constexpr int kMaxWhite = 6;
constexpr int kMaxCopiesPerLine = 60;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string side_name(Side side) {
  return side == Side::kLight ? "Light Side" : "Dark Side";
}

std::string named(const CardData& c) {
  return std::string(c.title) + " (" + c.id + ")";
}

}  // namespace

Side seat_side(int seat) {
  return seat == 0 ? Side::kLight : Side::kDark;
}

namespace {

// One reading of the list as a deck of `side`: every title names that side's printing.
// `progress` counts the cards it accepted before a refusal (more than a deck holds: all of them).
DeckResult read_as(std::string_view list, Side side, int& progress) {
  Deck deck;
  deck.side = side;
  std::array<int, 6> coloured{};
  std::array<int, 6> white{};
  int whites = 0;
  int line_no = 0;
  while (!list.empty()) {
    size_t nl = list.find('\n');
    std::string_view line = trim(list.substr(0, nl));
    list = nl == std::string_view::npos ? std::string_view{} : list.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    int count = 0;
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), count);
    std::string_view name = trim(line.substr(static_cast<size_t>(end - line.data())));
    if (ec != std::errc() || name.empty() || count < 1 || count > kMaxCopiesPerLine) {
      return {std::nullopt, "Y1: line " + std::to_string(line_no) +
                                " is not '<count> <card id or title>': " + std::string(line)};
    }
    auto index = find_card(name, side);
    if (!index) return {std::nullopt, "Y1: no card '" + std::string(name) + "' in the catalogue"};
    const CardData& c = card(*index);
    if (!c.usable) {
      return {std::nullopt, "Y1: " + named(c) +
                                " lacks card data this ruleset needs, so it "
                                "cannot be in a deck"};
    }
    if (c.side != deck.side) {
      return {std::nullopt, "Y1: " + named(c) + " is a " + side_name(c.side) + " card in a " +
                                side_name(deck.side) + " deck"};
    }
    for (int copy = 0; copy < count; ++copy) {
      deck.cards.push_back(*index);
      if (static_cast<int>(deck.cards.size()) > kMaxCards) {
        return {std::nullopt, "Y1: a deck holds at most 60 cards; " + named(c) + " is card 61"};
      }
      for (size_t row = 0; row < 6; ++row) {
        if (c.dots[row] == 1 && ++coloured[row] > kMaxPerColour) {
          return {std::nullopt, "Y1: at most 10 cards per dot colour; " + named(c) + " is the " +
                                    "11th with a " + kColours[row] + " dot"};
        }
        if (c.dots[row] == 2) {
          ++whites;
          if (++white[row] > kMaxWhitePerColour || whites > kMaxWhite) {
            return {std::nullopt,
                    "Y1: white dots are wild, at most one per colour and six per "
                    "deck; " +
                        named(c) + " has one too many in the " + kColours[row] + " row"};
          }
        }
      }
      progress = static_cast<int>(deck.cards.size());
    }
  }
  progress = kMaxCards + 1;  // every card read: only the deck's size is left to check
  if (static_cast<int>(deck.cards.size()) < kMinCards) {
    return {std::nullopt, "Y1: a deck holds at least 40 cards; this list has " +
                              std::to_string(deck.cards.size())};
  }
  return {std::move(deck), {}};
}

}  // namespace

DeckResult parse_deck(std::string_view list, std::optional<Side> side) {
  // Y1 refuses only a list that breaks its rules, so a title both sides print ("Blaster") names
  // the printing of the side the whole list reads as: with no side given, the list is read as
  // each side's deck and a legal reading is kept (Light first, for a list legal as both: every
  // line names a title of both sides). A list with no legal reading is refused with the error
  // of the reading that accepted more cards, which names the card that broke it.
  int light_progress = 0;
  int dark_progress = 0;
  if (side) return read_as(list, *side, light_progress);
  DeckResult light = read_as(list, Side::kLight, light_progress);
  if (light.deck) return light;
  DeckResult dark = read_as(list, Side::kDark, dark_progress);
  if (dark.deck || dark_progress > light_progress) return dark;
  return light;
}

Deck deck_for_seat(int seat, const std::string& option) {
  if (trim(option).empty()) {
    for (const ReadyDeck& ready : ready_decks()) {
      if (ready.side == seat_side(seat)) return *parse_deck(ready.list).deck;
    }
  }
  // Options reach the state only after check_seat_decks accepted them.
  return *parse_deck(option, seat_side(seat)).deck;
}

std::optional<std::string> check_deck_option(const std::string& option) {
  if (trim(option).empty()) return std::nullopt;
  DeckResult result = parse_deck(option);
  if (!result.deck) return result.error;
  return std::nullopt;
}

std::optional<std::string> check_seat_decks(const std::vector<std::string>& options) {
  for (size_t seat = 0; seat < options.size(); ++seat) {
    if (trim(options[seat]).empty()) continue;
    Side wanted = seat_side(static_cast<int>(seat));
    DeckResult result = parse_deck(options[seat]);
    if (!result.deck) return "seat " + std::to_string(seat) + ": " + result.error;
    // A list legal as either side plays the seat's side.
    if (result.deck->side != wanted) {
      if (DeckResult as_seat = parse_deck(options[seat], wanted); as_seat.deck) continue;
    }
    if (result.deck->side != wanted) {
      return "seat " + std::to_string(seat) + ": Y1: this seat plays the " + side_name(wanted) +
             ", and " + named(card(result.deck->cards.front())) + " is a " +
             side_name(result.deck->side) + " card";
    }
  }
  return std::nullopt;
}

}  // namespace duelhall::engine::young_jedi
