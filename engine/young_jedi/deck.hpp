// Deck lists (ruling Y1). A deck list is plain text, one line per card: a count and the card's
// id or title ("3 5_31" or "3 Darth Maul, Student of the Dark Side"); blank lines and lines
// starting with '#' are ignored. A deck holds 40 to 60 characters, weapons and battle cards of
// one side with usable data, at most 10 cards per deck-building dot colour; white dots are wild,
// at most one per colour row and six per deck (Y11).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "young_jedi/catalogue.hpp"

namespace duelhall::engine::young_jedi {

struct Deck {
  Side side = Side::kLight;
  std::vector<uint16_t> cards;  // catalogue indices, one per card
};

struct DeckResult {
  std::optional<Deck> deck;
  std::string error;  // names the rule and the card when the list is refused
};

// Reads the list as a deck of `side`, or with no side as whichever side gives it a legal
// reading (a title both sides print names that side's printing): refused only when none does,
// with the first problem review_deck (deck_review.hpp) finds.
DeckResult parse_deck(std::string_view list, std::optional<Side> side = std::nullopt);

// The deck as a list parse_deck reads back to the same cards and side (export, copy and paste):
// a "# Light Side" or "# Dark Side" line, then one line per run of a card, by title when the
// title names that printing for the side, else by id.
std::string write_deck(const Deck& deck);

// The ready decks shipped with the server (at least two per side).
struct ReadyDeck {
  const char* name;
  Side side;
  const char* list;
};
std::span<const ReadyDeck> ready_decks();
// The seat's deck: its option, or the first ready deck of the seat's side when the option is
// empty. Seat 0 plays the Light Side, seat 1 the Dark Side (Y1).
Deck deck_for_seat(int seat, const std::string& option);
Side seat_side(int seat);

// Registry hooks: one seat's list alone, and every seat's list against its side.
std::optional<std::string> check_deck_option(const std::string& option);
std::optional<std::string> check_seat_decks(const std::vector<std::string>& options);

}  // namespace duelhall::engine::young_jedi
