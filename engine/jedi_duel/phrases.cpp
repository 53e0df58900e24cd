#include "jedi_duel/phrases.hpp"

#include <array>
#include <string_view>

#include "jedi_duel/cards.hpp"
#include "jedi_duel/jedi_duel.hpp"

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
    // Labels: a ♣ card's declared area follows as an {as} or {into} entry, "" for no area.
    "Stance {card}{as}"sv,
    "attack {s} with {card}{into}"sv,
    "Joker against {s}"sv,
    "Force Heal with {card}"sv,
    "Force Push with {card}"sv,
    "Force Sense on {s} with {card}"sv,
    "Force Lightning with {card}, {card}, {card}, {card}"sv,
    "Force Lightning with both Jokers"sv,
    "discard {card} to regain fatigue"sv,
    "pass"sv,
    "take it"sv,
    "defend with {card}"sv,
    "Force Defence with {card}"sv,
    "make the attacker fumble with {card}"sv,
    "no fumble"sv,
    "swap {card} for {card}"sv,
    "no swap"sv,
    "put {card} back on the deck"sv,
};
static_assert(kTemplates.size() == kLabelReturnCard + 1, "one template per PhraseId");

// By EndReason.
constexpr std::array kEndReasons = {
    "last player with fatigue left"sv,
    "the deck went round once per player; most fatigue wins"sv,
    "the deck went round once per player; tied for most fatigue, a shared draw"sv,
};
// By DropCause.
constexpr std::array kDropCauses = {"the Joker"sv, "Lightning"sv};
// A declared area in a label, by Area ("" for kNoArea).
constexpr std::array kAsAreas = {""sv, " as High"sv, " as Middle"sv, " as Low"sv};
constexpr std::array kIntoAreas = {""sv, " into High"sv, " into Middle"sv, " into Low"sv};
static_assert(kAsAreas.size() == kAreaNames.size() && kIntoAreas.size() == kAreaNames.size());

constexpr std::array kLists = {
    PhraseList{"card", kCardNames},
    PhraseList{"area", kAreaNames},
    PhraseList{"end", kEndReasons},
    PhraseList{"cause", kDropCauses},
    PhraseList{"as", kAsAreas},
    PhraseList{"into", kIntoAreas},
};

// By Kind (jedi_duel.hpp): the template and the argument bytes its slots take.
constexpr std::array kLabelForms = {
    LabelForm{},                                  // 0: no kind
    LabelForm{kLabelStance, "01"},                // kStance: card, declared area
    LabelForm{kLabelAttack, "102"},               // kAttack: target, card, declared area
    LabelForm{kLabelJokerAttack, "1"},            // kJokerAttack: target
    LabelForm{kLabelForceHeal, "0"},              // kForceHeal
    LabelForm{kLabelForcePush, "0"},              // kForcePush
    LabelForm{kLabelForceSense, "10"},            // kForceSense: target, card
    LabelForm{kLabelLightningRoyals, "0123"},     // kLightningRoyals
    LabelForm{kLabelLightningJokers, ""},         // kLightningJokers
    LabelForm{kLabelDiscard, "0"},                // kDiscard
    LabelForm{kLabelPass, ""},                    // kPassAction
    LabelForm{kLabelNoDefence, ""},               // kNoDefence
    LabelForm{kLabelClubDefence, "0"},            // kClubDefence
    LabelForm{kLabelForceDefence, "0"},           // kForceDefence
    LabelForm{kLabelFumble, "0"},                 // kFumble
    LabelForm{kLabelNoFumble, ""},                // kNoFumble
    LabelForm{kLabelSenseSwap, "01"},             // kSenseSwap: own card, opponent's card
    LabelForm{kLabelNoSwap, ""},                  // kNoSwap
    LabelForm{kLabelReturnCard, "0"},             // kReturnCard
    LabelForm{kLabelStance, "01"},                // kSetupStance: card, declared area
};
static_assert(kLabelForms.size() == kLastKind + 1, "one form per Kind");

constexpr PhraseBook kBook{kTemplates, kLists, kLabelForms};

}  // namespace

const PhraseBook& phrase_book() {
  return kBook;
}

std::string_view end_reason_text(EndReason reason) {
  return kEndReasons[reason];
}

}  // namespace duelhall::engine::jedi_duel
