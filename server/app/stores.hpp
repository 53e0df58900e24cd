// Which stores the server opens: PostgreSQL when a database URL is configured (--database),
// otherwise the SQLite file <data>/duelhall.db, or no match store at all with storage = memory
// (its accounts then live in memory for the process's lifetime).
#pragma once

#include <memory>
#include <string>

#include "config/config.hpp"
#include "storage/account_store.hpp"
#include "storage/deck_store.hpp"
#include "storage/tournament_store.hpp"
#include "storage/match_store.hpp"
#include "storage/moderation_store.hpp"

namespace duelhall::server {

struct Stores {
  std::unique_ptr<storage::MatchStore> matches;  // null: matches are not stored
  std::unique_ptr<storage::AccountStore> accounts;
  // Bans, mutes, reports, the audit log and ignores: the same object as `accounts` (both backends'
  // account stores keep them, in the same database), never null.
  storage::ModerationStore* moderation = nullptr;
  // Saved decks (docs/accounts.md): the same object as `accounts` too, never null.
  storage::DeckStore* decks = nullptr;
  // Tournaments (docs/tournaments.md): the same object as `accounts` too, never null.
  storage::TournamentStore* tournaments = nullptr;
  std::string where;  // for the log: the file, or the database URL without its password
};

// Throws StoreError with the reason (a damaged file, an unreachable or foreign database). `prune`:
// the match store is opened even with storage = memory, for `duelhall --prune`.
Stores open_stores(const Config& config, bool prune);

}  // namespace duelhall::server
