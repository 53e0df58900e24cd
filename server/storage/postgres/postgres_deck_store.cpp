// PostgresAccountStore's deck half: the saved decks of migration 4 of pg_schema.cpp
// (docs/accounts.md, "Saved decks"), on the accounts' connection. The same queries as
// sqlite_deck_store.cpp, in PostgreSQL's dialect.
#include "storage/postgres/postgres_account_store.hpp"

namespace duelhall::storage {
namespace {

constexpr const char* kDeckColumns =
    "SELECT d.id, d.owner, coalesce(a.name, ''), d.name, d.ruleset, d.list, d.side, d.cards, "
    "d.public, d.updated_at FROM decks d JOIN accounts a ON a.id = d.owner ";

DeckRecord read_deck(const PgResult& rows, int row) {
  DeckRecord d;
  d.id = rows.integer(row, 0);
  d.owner = rows.integer(row, 1);
  d.owner_name = rows.text(row, 2);
  d.name = rows.text(row, 3);
  d.ruleset = rows.text(row, 4);
  d.list = rows.text(row, 5);
  d.side = rows.text(row, 6);
  d.cards = rows.integer(row, 7);
  d.is_public = rows.boolean(row, 8);
  d.updated_ms = rows.integer(row, 9);
  return d;
}

PgParams& add_deck_fields(PgParams& params, const DeckRecord& deck) {
  return params.add(deck.name)
      .add(deck.ruleset)
      .add(deck.list)
      .add(deck.side)
      .add(deck.cards)
      .add(std::string_view(deck.is_public ? "true" : "false"))
      .add(deck.updated_ms);
}

}  // namespace

std::vector<DeckRecord> PostgresAccountStore::decks_of(AccountId owner) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows = db_->query(
      std::string(kDeckColumns) + "WHERE d.owner = $1 ORDER BY d.updated_at DESC, d.id DESC",
      PgParams().add(owner));
  std::vector<DeckRecord> out;
  for (int r = 0; r < rows.rows(); ++r) out.push_back(read_deck(rows, r));
  return out;
}

std::optional<DeckRecord> PostgresAccountStore::find_deck(int64_t id) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows =
      db_->query(std::string(kDeckColumns) + "WHERE d.id = $1", PgParams().add(id));
  if (rows.rows() == 0) return std::nullopt;
  return read_deck(rows, 0);
}

std::optional<int64_t> PostgresAccountStore::add_deck(const DeckRecord& deck, int64_t max_decks) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  // The owner's row locked first: two saves of one account count one after the other.
  db_->query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", PgParams().add(deck.owner));
  const PgResult count =
      db_->query("SELECT count(*) FROM decks WHERE owner = $1", PgParams().add(deck.owner));
  if (count.integer(0, 0) >= max_decks) return std::nullopt;
  PgParams params;
  params.add(deck.owner);
  add_deck_fields(params, deck);
  const PgResult id = db_->query(
      "INSERT INTO decks (owner, name, ruleset, list, side, cards, public, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
      params);
  tx.commit();
  return id.integer(0, 0);
}

bool PostgresAccountStore::replace_deck(const DeckRecord& deck) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  PgParams params;
  add_deck_fields(params, deck).add(deck.id).add(deck.owner);
  const PgResult done = db_->query(
      "UPDATE decks SET name = $1, ruleset = $2, list = $3, side = $4, cards = $5, public = $6, "
      "updated_at = $7 WHERE id = $8 AND owner = $9",
      params);
  return done.affected() == 1;
}

bool PostgresAccountStore::delete_deck(int64_t id, AccountId owner) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult done = db_->query("DELETE FROM decks WHERE id = $1 AND owner = $2",
                                   PgParams().add(id).add(owner));
  return done.affected() == 1;
}

}  // namespace duelhall::storage
