// The book's text is constant data: templates and lists are string_views into literals and into
// the catalogue's titles, gathered at compile time.
#include "young_jedi/phrases.hpp"

#include <array>
#include <iterator>
#include <string_view>

#include "young_jedi/table.hpp"

namespace duelhall::engine::young_jedi {
namespace {

constexpr std::string_view kTemplates[] = {
    "",
    "{s} takes {n} damage: {card} deployed to {planet}",
    "{s} searches her draw deck: {card} deployed to {planet}",
    "{s} deployed {card} (destiny {n}) from her draw deck",
    "{s} deployed nothing from her draw deck and takes {n} damage",
    "{s} initiated a duel: {card} with {card} against {card}",
    "{s} defends with {card}",
    "{s}'s {card} has DAMAGE 0 and is discarded; the duel is over",
    "{s} drew destiny for Anakin: {card} (destiny {n})",
    "{s} duels at power {n} and drew {n} dueling cards",
    "{s} attacked with {card} (destiny {n})",
    "{s} blocked with {card} (destiny {n})",
    "{s} scored a hit on {s}",
    "{card} (destiny {n}): one extra hit",
    "{s} used the dueling text of {card} (destiny {n})",
    "{s}'s {card} was defeated",
    "both ran out of dueling cards: hits {n} to {n}",
    "{s} takes {n} damage",
    "{s} won the destiny draw and goes first",
    "{s} drew {card} (destiny {n})",
    "{s} drew a card",
    "{s} chose {planet}",
    "{s} deployed {card} (destiny {n})",
    "{s} takes the draw her card offers",
    "{s} does not draw",
    "{s} conceded",
    "both players drew their last card in the same fight: a tie",
    "{s} has no draw deck left: {s} wins by deck victory",
};
static_assert(std::size(kTemplates) == kSaidCount);

// The catalogue's rows once more, read only here at compile time for their titles: the catalogue
// lives in catalogue.cpp, whose array no other file can read in a constant expression. Index i is
// catalogue index i, as in catalogue.cpp.
constexpr CardData kCards[] = {
#include "young_jedi/catalogue_data.inc"
};

constexpr auto kCardTitles = [] {
  std::array<std::string_view, std::size(kCards)> titles{};
  for (size_t i = 0; i < titles.size(); ++i) titles[i] = kCards[i].title;
  return titles;
}();

constexpr std::string_view kPlanetList[kPlanets] = {kPlanetNames[0], kPlanetNames[1],
                                                    kPlanetNames[2]};

constexpr PhraseList kLists[] = {{"card", kCardTitles}, {"planet", kPlanetList}};

constexpr PhraseBook kBook{kTemplates, kLists};

}  // namespace

const PhraseBook& phrase_book() {
  return kBook;
}

}  // namespace duelhall::engine::young_jedi
