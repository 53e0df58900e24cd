// DeckStore: where accounts keep their saved decks (Young Jedi deck lists, Force Battles setups;
// docs/accounts.md, "Saved decks"). One small interface with a SQLite and a PostgreSQL backend,
// kept in the accounts' database; the decks room (server/decks) reaches its data only here.
//
// Contract for every backend: as AccountStore's (any thread, each write one transaction,
// failures throw StoreError). A backend stores what it is given: the room checks names, lists
// and legality first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/account_store.hpp"

namespace duelhall::storage {

struct DeckRecord {
  int64_t id = 0;
  AccountId owner = 0;
  std::string owner_name;  // filled by reads; empty for a deleted account
  std::string name;
  std::string ruleset;
  std::string list;
  std::string side;  // "light", "dark", or empty (a setup)
  int64_t cards = 0;
  bool is_public = false;
  int64_t updated_ms = 0;
};

class DeckStore {
 public:
  virtual ~DeckStore() = default;
  // The owner's decks, the last changed first.
  virtual std::vector<DeckRecord> decks_of(AccountId owner) = 0;
  virtual std::optional<DeckRecord> find_deck(int64_t id) = 0;
  // Stores a new deck (its id is ignored) unless its owner keeps `max_decks` already: then
  // nullopt and nothing is stored. The count and the insert are one transaction.
  virtual std::optional<int64_t> add_deck(const DeckRecord& deck, int64_t max_decks) = 0;
  // Replaces name, ruleset, list, side, cards, public flag and time of the owner's deck
  // `deck.id`; false (nothing written): the owner has no deck with that id.
  virtual bool replace_deck(const DeckRecord& deck) = 0;
  // false: the owner has no deck with that id.
  virtual bool delete_deck(int64_t id, AccountId owner) = 0;
};

}  // namespace duelhall::storage
