// A deck list as the deck editor sees it: read through the Young Jedi engine's own reading
// (engine/young_jedi/deck_review.hpp, the one parse_deck keeps and a seat's check applies), with
// every problem named by its rule, line and card, and the deck's figures.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "decks.pb.h"

namespace duelhall::server {

// The rulesets that keep saved decks: a young_jedi deck list, a force_battles named setup.
constexpr std::string_view kDeckListRuleset = "young_jedi";
constexpr std::string_view kSetupRuleset = "force_battles";
bool keeps_decks(std::string_view ruleset);

// The limits of a saved deck (docs/accounts.md): bytes of its name and of its list.
constexpr size_t kMaxDeckName = 64;
constexpr size_t kMaxDeckList = 8 * 1024;

// `seat` 0 or 1: read as that seat's side (Light, Dark) and refused with a problem when the
// list is the other side's; -1: either side.
DeckCheck check_deck_list(std::string_view list, int seat);

// "light" or "dark".
std::string side_word(bool light);

// When `check` refuses the deck, the first problem as a refusal's reason.
std::optional<std::string> first_problem(const DeckCheck& check);

}  // namespace duelhall::server
