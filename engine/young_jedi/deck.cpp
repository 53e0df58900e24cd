#include "young_jedi/deck.hpp"

#include "young_jedi/deck_review.hpp"

namespace duelhall::engine::young_jedi {
namespace {

DeckResult verdict(DeckReview review) {
  if (!review.problems.empty()) return {std::nullopt, std::move(review.problems.front().text)};
  return {Deck{review.side, std::move(review.cards)}, {}};
}

}  // namespace

Side seat_side(int seat) {
  return seat == 0 ? Side::kLight : Side::kDark;
}

DeckResult parse_deck(std::string_view list, std::optional<Side> side) {
  return verdict(side ? review_deck(list, *side) : review_deck(list));
}

std::string write_deck(const Deck& deck) {
  // One line per run of the same card, by title where the title reads back as that very
  // printing for the deck's side, else by id; a header line says the side.
  std::string out = std::string("# ") + side_name(deck.side) + "\n";
  for (size_t i = 0; i < deck.cards.size();) {
    size_t run = i;
    while (run < deck.cards.size() && deck.cards[run] == deck.cards[i]) ++run;
    const CardData& c = card(deck.cards[i]);
    const bool title_reads_back = find_card(c.title, deck.side) == deck.cards[i];
    out += std::to_string(run - i) + " " + (title_reads_back ? c.title : c.id) + "\n";
    i = run;
  }
  return out;
}

Deck deck_for_seat(int seat, const std::string& option) {
  if (trim_line(option).empty()) {
    for (const ReadyDeck& ready : ready_decks()) {
      if (ready.side == seat_side(seat)) return *parse_deck(ready.list).deck;
    }
  }
  // Options reach the state only after check_seat_decks accepted them.
  return *parse_deck(option, seat_side(seat)).deck;
}

std::optional<std::string> check_deck_option(const std::string& option) {
  if (trim_line(option).empty()) return std::nullopt;
  DeckResult result = parse_deck(option);
  if (!result.deck) return result.error;
  return std::nullopt;
}

std::optional<std::string> check_seat_decks(const std::vector<std::string>& options) {
  for (size_t seat = 0; seat < options.size(); ++seat) {
    if (trim_line(options[seat]).empty()) continue;
    Side wanted = seat_side(static_cast<int>(seat));
    DeckResult result = parse_deck(options[seat]);
    if (!result.deck) return "seat " + std::to_string(seat) + ": " + result.error;
    // A list legal as either side plays the seat's side.
    if (result.deck->side != wanted) {
      if (DeckResult as_seat = parse_deck(options[seat], wanted); as_seat.deck) continue;
    }
    if (result.deck->side != wanted) {
      return "seat " + std::to_string(seat) + ": Y1: this seat plays the " + side_name(wanted) +
             ", and " + card_label(card(result.deck->cards.front())) + " is a " +
             side_name(result.deck->side) + " card";
    }
  }
  return std::nullopt;
}

}  // namespace duelhall::engine::young_jedi
