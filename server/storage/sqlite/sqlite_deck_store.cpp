// SqliteAccountStore's deck half: the saved decks of migration 8 (docs/accounts.md, "Saved
// decks"), on the accounts' connection.
#include "storage/sqlite/sqlite_account_store.hpp"

namespace duelhall::storage {
namespace {

constexpr const char* kDeckColumns =
    "SELECT d.id, d.owner, coalesce(a.name, ''), d.name, d.ruleset, d.list, d.side, d.cards, "
    "d.public, d.updated_at FROM decks d JOIN accounts a ON a.id = d.owner ";

DeckRecord read_deck(const Statement& stmt) {
  DeckRecord d;
  d.id = stmt.column_int(0);
  d.owner = stmt.column_int(1);
  d.owner_name = stmt.column_text(2);
  d.name = stmt.column_text(3);
  d.ruleset = stmt.column_text(4);
  d.list = stmt.column_text(5);
  d.side = stmt.column_text(6);
  d.cards = stmt.column_int(7);
  d.is_public = stmt.column_int(8) != 0;
  d.updated_ms = stmt.column_int(9);
  return d;
}

}  // namespace

std::vector<DeckRecord> SqliteAccountStore::decks_of(AccountId owner) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kDeckColumns) +
                           "WHERE d.owner = ? ORDER BY d.updated_at DESC, d.id DESC");
  stmt.bind(1, owner);
  std::vector<DeckRecord> out;
  while (stmt.step()) out.push_back(read_deck(stmt));
  return out;
}

std::optional<DeckRecord> SqliteAccountStore::find_deck(int64_t id) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kDeckColumns) + "WHERE d.id = ?");
  stmt.bind(1, id);
  if (!stmt.step()) return std::nullopt;
  return read_deck(stmt);
}

std::optional<int64_t> SqliteAccountStore::add_deck(const DeckRecord& deck, int64_t max_decks) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement count(*db_, "SELECT count(*) FROM decks WHERE owner = ?");
  count.bind(1, deck.owner);
  count.step();
  if (count.column_int(0) >= max_decks) return std::nullopt;
  Statement insert(*db_,
                   "INSERT INTO decks (owner, name, ruleset, list, side, cards, public, "
                   "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, deck.owner)
      .bind(2, deck.name)
      .bind(3, deck.ruleset)
      .bind(4, deck.list)
      .bind(5, deck.side)
      .bind(6, deck.cards)
      .bind(7, int64_t{deck.is_public ? 1 : 0})
      .bind(8, deck.updated_ms)
      .run();
  const int64_t id = db_->query_int("SELECT last_insert_rowid()");
  tx.commit();
  return id;
}

bool SqliteAccountStore::replace_deck(const DeckRecord& deck) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_,
                 "UPDATE decks SET name = ?, ruleset = ?, list = ?, side = ?, cards = ?, "
                 "public = ?, updated_at = ? WHERE id = ? AND owner = ?");
  stmt.bind(1, deck.name)
      .bind(2, deck.ruleset)
      .bind(3, deck.list)
      .bind(4, deck.side)
      .bind(5, deck.cards)
      .bind(6, int64_t{deck.is_public ? 1 : 0})
      .bind(7, deck.updated_ms)
      .bind(8, deck.id)
      .bind(9, deck.owner)
      .run();
  return db_->changes() == 1;
}

bool SqliteAccountStore::delete_deck(int64_t id, AccountId owner) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "DELETE FROM decks WHERE id = ? AND owner = ?");
  stmt.bind(1, id).bind(2, owner).run();
  return db_->changes() == 1;
}

}  // namespace duelhall::storage
