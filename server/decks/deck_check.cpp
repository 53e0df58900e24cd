#include "decks/deck_check.hpp"

#include "young_jedi/deck.hpp"
#include "young_jedi/deck_review.hpp"

namespace duelhall::server {
namespace {

namespace yj = engine::young_jedi;

DeckProblemInfo problem_info(const yj::DeckProblem& problem) {
  DeckProblemInfo info;
  info.set_line(static_cast<uint32_t>(problem.line));
  info.set_text(problem.text);
  if (const size_t colon = problem.text.find(':'); colon != std::string::npos && colon < 8) {
    info.set_rule(problem.text.substr(0, colon));
  }
  if (problem.card) {
    const yj::CardData& c = yj::card(*problem.card);
    info.set_card_id(c.id);
    info.set_card_title(c.title);
  }
  return info;
}

void fill_figures(const yj::DeckStats& stats, DeckFigures& out) {
  out.set_cards(static_cast<uint32_t>(stats.cards));
  out.set_characters(static_cast<uint32_t>(stats.characters));
  out.set_weapons(static_cast<uint32_t>(stats.weapons));
  out.set_battle_cards(static_cast<uint32_t>(stats.battle_cards));
  for (size_t row = 0; row < stats.coloured.size(); ++row) {
    DotCount& dots = *out.add_dots();
    dots.set_colour(std::string(yj::dot_colour(row)));
    dots.set_coloured(static_cast<uint32_t>(stats.coloured[row]));
    dots.set_white(static_cast<uint32_t>(stats.white[row]));
  }
  for (const auto& [value, cards] : stats.destiny) {
    CountAt& at = *out.add_destiny();
    at.set_value(value);
    at.set_cards(static_cast<uint32_t>(cards));
  }
  for (const auto& [value, cards] : stats.power) {
    CountAt& at = *out.add_power();
    at.set_value(value);
    at.set_cards(static_cast<uint32_t>(cards));
  }
}

}  // namespace

bool keeps_decks(std::string_view ruleset) {
  return ruleset == kDeckListRuleset || ruleset == kSetupRuleset;
}

std::string side_word(bool light) { return light ? "light" : "dark"; }

DeckCheck check_deck_list(std::string_view list, int seat) {
  const yj::DeckReview review = seat == 0 || seat == 1
                                    ? yj::review_deck(list, yj::seat_side(seat))
                                    : yj::review_deck(list);
  DeckCheck check;
  check.set_side(side_word(review.side == yj::Side::kLight));
  for (const yj::DeckProblem& problem : review.problems) {
    *check.add_problems() = problem_info(problem);
  }
  // A list of the other side read as this seat's leaves that side's cards out: say so by name.
  if ((seat == 0 || seat == 1) && review.problems.empty() == false) {
    const yj::DeckReview either = yj::review_deck(list);
    if (either.problems.empty() && either.side != review.side) {
      check.clear_problems();
      DeckProblemInfo& info = *check.add_problems();
      const yj::CardData& first = yj::card(either.cards.front());
      info.set_rule("Y1");
      info.set_card_id(first.id);
      info.set_card_title(first.title);
      info.set_text("Y1: seat " + std::to_string(seat) + " plays the " +
                    yj::side_name(review.side) + ", and " + yj::card_label(first) + " is a " +
                    yj::side_name(either.side) + " card");
      check.set_side(side_word(either.side == yj::Side::kLight));
    }
  }
  check.set_legal(check.problems_size() == 0);
  fill_figures(review.stats, *check.mutable_figures());
  if (check.legal()) {
    check.set_list(yj::write_deck(yj::Deck{review.side, review.cards}));
  }
  return check;
}

std::optional<std::string> first_problem(const DeckCheck& check) {
  if (check.legal()) return std::nullopt;
  const DeckProblemInfo& problem = check.problems(0);
  std::string reason = problem.text();
  if (problem.line() != 0) reason = "line " + std::to_string(problem.line()) + ": " + reason;
  if (check.problems_size() > 1) {
    reason += " (and " + std::to_string(check.problems_size() - 1) + " more)";
  }
  return reason;
}

}  // namespace duelhall::server
