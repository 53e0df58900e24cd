// Jedi Duel's vocabulary: cards, areas, the playaid tables and the fatigue track.
//
// Card ids are 1..54 (0 means "no card"), the same numbers on the wire and in actions:
// id = suit * 13 + rank for suits ♣ 0, ♦ 1, ♥ 2, ♠ 3 and ranks 1..13, then 53 and 54 for the
// two Jokers. Keeping 0 free lets a view omit an empty Stance like any proto3 default.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.hpp"

namespace duelhall::engine::jedi_duel {

using Card = uint8_t;
inline constexpr Card kNoCard = 0;
inline constexpr Card kFirstJoker = 53;
inline constexpr Card kSecondJoker = 54;
inline constexpr int kDeckSize = 54;

enum Suit : uint8_t { kClubs = 0, kDiamonds = 1, kHearts = 2, kSpades = 3 };

// The three areas on the line High - Middle - Low (J2); kNoArea before a first Stance.
enum Area : uint8_t { kNoArea = 0, kHigh = 1, kMiddle = 2, kLow = 3 };

constexpr Card make_card(Suit suit, int rank) {
  return static_cast<Card>(suit * 13 + rank);
}
constexpr bool is_joker(Card c) {
  return c >= kFirstJoker;
}
constexpr bool is_card(Card c) {
  return c >= 1 && c <= kSecondJoker;
}
constexpr Suit suit_of(Card c) {
  return static_cast<Suit>((c - 1) / 13);
}
constexpr int rank_of(Card c) {
  return (c - 1) % 13 + 1;
}
constexpr bool is_club(Card c) {
  return !is_joker(c) && suit_of(c) == kClubs;
}
constexpr bool is_royal(Card c) {
  return !is_joker(c) && rank_of(c) >= 11;
}
// The area a suit stands for; ♣ stands for none until declared (J3).
constexpr Area area_of_suit(Suit s) {
  return s == kDiamonds ? kHigh : s == kHearts ? kMiddle : s == kSpades ? kLow : kNoArea;
}
constexpr int steps_between(Area a, Area b) {
  return a > b ? a - b : b - a;
}

// A Force card (J10, J7) must be of the Stance's suit or a ♣ royal; the Stance's suit is the
// suit of its area, which also covers a ♣ declared to that area (J3).
constexpr bool matches_stance(Card c, Area stance) {
  return is_club(c) || (!is_joker(c) && area_of_suit(suit_of(c)) == stance && stance != kNoArea);
}

// The names by card id (the phrase book's {card} list).
inline constexpr std::array<std::string_view, kSecondJoker + 1> kCardNames = {
    "no card", "A♣",  "2♣", "3♣",  "4♣", "5♣",  "6♣", "7♣", "8♣", "9♣",    "10♣",
    "J♣",      "Q♣",  "K♣", "A♦",  "2♦", "3♦",  "4♦", "5♦", "6♦", "7♦",    "8♦",
    "9♦",      "10♦", "J♦", "Q♦",  "K♦", "A♥",  "2♥", "3♥", "4♥", "5♥",    "6♥",
    "7♥",      "8♥",  "9♥", "10♥", "J♥", "Q♥",  "K♥", "A♠", "2♠", "3♠",    "4♠",
    "5♠",      "6♠",  "7♠", "8♠",  "9♠", "10♠", "J♠", "Q♠", "K♠", "Joker", "Joker"};
static_assert(kCardNames[kSecondJoker] == "Joker", "one name per card id");
// The names by Area (the phrase book's {area} list); kNoArea reads "no".
inline constexpr std::array<std::string_view, kLow + 1> kAreaNames = {"no", "High", "Middle",
                                                                      "Low"};

std::string card_name(Card c);   // "7♥", "K♣", "Joker"
const char* area_name(Area a);   // "High", "Middle", "Low"

// The playaid tables and the fatigue track, as parameters with the J4, J5 and J9 defaults.
struct Tables {
  int speed_own_area = 1;          // J4: attack into the attacker's own Stance area
  int speed_other_area = 2;        // J4: attack into any other area
  int defence_middle_step = 2;     // J5: ♥ Middle defender, attack one step away
  int defence_edge_one_step = 3;   // J5: ♦ High or ♠ Low defender, one step away
  int defence_edge_two_steps = 5;  // J5: ♦ High or ♠ Low defender, two steps away
  int fatigue_start = 21;          // J9: counters start here, the top of the track
  int column_height = 7;           // J9: 21-15, 14-8, 7-1

  static Tables from(const Params& params);

  // The defensive modifier a defender in `stance` adds against an attack into `attacked`.
  int defence_modifier(Area stance, Area attacked) const;
  int speed_modifier(Area attacker_stance, Area attacked) const {
    return attacker_stance == attacked ? speed_own_area : speed_other_area;
  }
  // Columns count from 0 at the bottom (7-1); fatigue at or below 0 is out and in column 0.
  int column_of(int fatigue) const { return fatigue <= 0 ? 0 : (fatigue - 1) / column_height; }
  int column_top(int fatigue) const {
    int top = (column_of(fatigue) + 1) * column_height;
    return top < fatigue_start ? top : fatigue_start;
  }
  int column_bottom(int fatigue) const { return column_of(fatigue) * column_height + 1; }
};

std::vector<ParamSpec> jedi_duel_params();

}  // namespace duelhall::engine::jedi_duel
