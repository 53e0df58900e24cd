// A deck list read whole (ruling Y1, white dots Y11): every problem it has, each naming its rule,
// line and card, and the figures a deck builder shows. parse_deck (deck.hpp) is this reading's
// verdict, so an editor's live check and a seat's check are the same code.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "young_jedi/catalogue.hpp"

namespace duelhall::engine::young_jedi {

struct DeckProblem {
  int line = 0;                  // 1-based line of the list; 0 for the deck as a whole
  std::optional<uint16_t> card;  // the card that breaks the rule, when one does
  std::string text;              // starts with the rule: "Y1: ..."
};

struct DeckStats {
  int cards = 0;
  int characters = 0;
  int weapons = 0;
  int battle_cards = 0;
  std::array<int, 6> coloured{};  // cards with a coloured dot in each colour row
  std::array<int, 6> white{};     // and with a white (wild) dot
  std::map<int, int> destiny;     // destiny number -> cards
  std::map<int, int> power;       // characters' power -> characters
};

struct DeckReview {
  Side side = Side::kLight;
  std::vector<uint16_t> cards;  // the cards read, in list order (those of another side left out)
  std::vector<DeckProblem> problems;  // in the order met; empty: a legal deck
  // Cards accepted before the first problem (a deck's worth and one when it is only the size):
  // which of two readings (Light, Dark) went further.
  int progress = 0;
  DeckStats stats;
};

// The list read as a deck of `side`: every title names that side's printing.
DeckReview review_deck(std::string_view list, Side side);
// With no side: the reading parse_deck keeps (a legal one, else the one that went further).
DeckReview review_deck(std::string_view list);

// The colour rows' names, in the order of CardData::dots.
std::string_view dot_colour(size_t row);

// How refusals name things: "Light Side", "Sith Lightsaber (1_107)"; and a list's line without
// its surrounding blanks.
std::string side_name(Side side);
std::string card_label(const CardData& c);
std::string_view trim_line(std::string_view line);

}  // namespace duelhall::engine::young_jedi
