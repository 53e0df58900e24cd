// The decks room's door (docs/accounts.md, "Saved decks"; decks.proto): the handlers the
// dispatcher routes ListDecks, GetDeck, SaveDeck, DeleteDeck and CheckDeck to, and the loading
// of a saved deck for a seat (CreateMatch.saved_deck, JoinMatch.saved_deck), which the match
// then checks again as any seat's deck.
#pragma once

#include <cstdint>
#include <string>

#include "decks/deck_host.hpp"
#include "hall/call.hpp"

namespace duelhall::server {

Handled handle_list_decks(DeckHost& hub, Call& call, const ListDecks& request);
Handled handle_get_deck(DeckHost& hub, Call& call, const GetDeck& request);
Handled handle_save_deck(DeckHost& hub, Call& call, const SaveDeck& request);
Handled handle_delete_deck(DeckHost& hub, Call& call, const DeleteDeck& request);
Handled handle_check_deck(DeckHost& hub, Call& call, const CheckDeck& request);

// The saved deck `id` (the account's own, or a public one) as the seat option of `*seat` in a
// match of `ruleset`: OK with `*option` set (and `*seat`, when it was -1 and the deck is a
// young_jedi list, set to the seat of the deck's side), or the refusal (SIGN_IN_REQUIRED,
// UNKNOWN_DECK, DECK_PRIVATE, DECK_WRONG_SIDE, STORAGE_DISABLED).
Handled load_seat_deck(DeckHost& hub, const Call& call, uint64_t id, const std::string& ruleset,
                       int* seat, std::string* option);

}  // namespace duelhall::server
