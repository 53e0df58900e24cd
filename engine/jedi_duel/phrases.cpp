#include "jedi_duel/phrases.hpp"

#include <array>
#include <string_view>

#include "jedi_duel/cards.hpp"

namespace duelhall::engine::jedi_duel {
namespace {

using namespace std::string_view_literals;

// In PhraseId order; index 0 is no phrase.
constexpr std::array kTemplates = {
    ""sv,
    "{s} uses Force Heal ({card}): {n} fatigue"sv,
    "{s} uses Force Push ({card})"sv,
    "{s} uses Force Sense on {s} and sees {card*}"sv,
    "{s} uses Force Sense on {s} and sees an empty hand"sv,
    "{s} uses Force Sense on {s}"sv,
    "{s} swaps {card} for {s}'s {card}"sv,
    "{s} swaps a card with {s}"sv,
    "{s} has no card to play"sv,
    "{s} puts {card} back on the deck"sv,
    "{s} puts a card back on the deck"sv,
    "{s} keeps the Stance"sv,
    "{s} takes a {area} Stance with {card}"sv,
    "the discard pile becomes the draw deck: pass {n} of {n}"sv,
    "{s} drew {card*}"sv,
    "{s} drew nothing"sv,
    "{s} drew {n} card(s)"sv,
    "game over: {end}"sv,
    "{s} is out"sv,
    "{s} attacks {s} {area} with {card}: attack {n} against defence {n}"sv,
    "{s} strikes {s} with a Joker"sv,
    "{s} casts Force Lightning"sv,
    "{s} negates it with a Force Defence, {card}"sv,
    "{s} makes {s} fumble: {card} replaces {card}, now {area}"sv,
    "the attack on {s} is too slow"sv,
    "the attack on {s} behind {card} (defence {n}) is too slow"sv,
    "{s} hits {s}: {n} fatigue, {n} left"sv,
    "{s} hits {s} behind {card} (defence {n}): {n} fatigue, {n} left"sv,
    "{cause} drops {s} to {n}"sv,
    "{s} discards {card} to regain {n} fatigue"sv,
};
static_assert(kTemplates.size() == kSaidRegains + 1, "one template per PhraseId");

// By EndReason.
constexpr std::array kEndReasons = {
    "last player with fatigue left"sv,
    "the deck went round once per player; most fatigue wins"sv,
    "the deck went round once per player; tied for most fatigue, a shared draw"sv,
};
// By DropCause.
constexpr std::array kDropCauses = {"the Joker"sv, "Lightning"sv};

constexpr std::array kLists = {
    PhraseList{"card", kCardNames},
    PhraseList{"area", kAreaNames},
    PhraseList{"end", kEndReasons},
    PhraseList{"cause", kDropCauses},
};

constexpr PhraseBook kBook{kTemplates, kLists};

}  // namespace

const PhraseBook& phrase_book() {
  return kBook;
}

std::string_view end_reason_text(EndReason reason) {
  return kEndReasons[reason];
}

}  // namespace duelhall::engine::jedi_duel
