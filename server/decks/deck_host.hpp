// What the decks room needs from the hall it serves (the lobby's Hub implements it): the deck
// store and the host's configuration (decks.max_per_account). Through it decks/ stays below the
// lobby and never includes it.
#pragma once

#include "config/config.hpp"

namespace duelhall::storage {
class DeckStore;
}

namespace duelhall::server {

class DeckHost {
 public:
  virtual ~DeckHost() = default;
  // Null when the server keeps no decks (no accounts' store).
  virtual storage::DeckStore* deck_store() const = 0;
  virtual const Config& config() const = 0;
};

}  // namespace duelhall::server
