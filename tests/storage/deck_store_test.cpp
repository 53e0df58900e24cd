// The saved decks of the account stores (storage/deck_store.hpp), on both backends
// (backends.hpp): a deck keeps what it is given, the owner's limit is counted in the same
// transaction as the insert, only the owner replaces or deletes a deck, and deleting an account
// deletes its decks.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "storage/sqlite/schema.hpp"
#include "storage/postgres/pg_schema.hpp"

using namespace duelhall;
using testing::PostgresBackend;
using testing::SqliteBackend;

namespace {

storage::DeckRecord deck(storage::AccountId owner, const std::string& name, int64_t at) {
  storage::DeckRecord d;
  d.owner = owner;
  d.name = name;
  d.ruleset = "young_jedi";
  d.list = "# Light Side\n40 1_1\n";
  d.side = "light";
  d.cards = 40;
  d.is_public = false;
  d.updated_ms = at;
  return d;
}

}  // namespace

TEMPLATE_TEST_CASE("saved decks keep what they are given, the last changed listed first",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store = backend.open_accounts();
  const auto ann = *store->create_account("Ann", "ann", "$argon2id$x", 1);
  const auto first = store->add_deck(deck(ann, "first", 100), 100);
  REQUIRE(first);
  storage::DeckRecord setup = deck(ann, "setup", 200);
  setup.ruleset = "force_battles";
  setup.list = "ATT 5\nDEF 5\n";
  setup.side = "";
  setup.cards = 0;
  setup.is_public = true;
  const auto second = store->add_deck(setup, 100);
  REQUIRE(second);
  CHECK(*second != *first);

  const auto listed = store->decks_of(ann);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].id == *second);  // the last changed first
  CHECK(listed[0].ruleset == "force_battles");
  CHECK(listed[0].list == "ATT 5\nDEF 5\n");
  CHECK(listed[0].is_public);
  CHECK(listed[0].owner_name == "Ann");
  CHECK(listed[1].name == "first");
  CHECK(listed[1].side == "light");
  CHECK(listed[1].cards == 40);
  CHECK(listed[1].updated_ms == 100);

  // A store opened again (a restart) finds the same decks.
  auto reopened = backend.open_accounts();
  const auto found = reopened->find_deck(*first);
  REQUIRE(found);
  CHECK(found->name == "first");
  CHECK_FALSE(found->is_public);
  CHECK_FALSE(reopened->find_deck(*second + 1000));
}

TEMPLATE_TEST_CASE("a deck past the owner's limit is not stored, and other owners count apart",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store = backend.open_accounts();
  const auto ann = *store->create_account("Ann", "ann", "$argon2id$x", 1);
  const auto ben = *store->create_account("Ben", "ben", "$argon2id$x", 1);
  REQUIRE(store->add_deck(deck(ann, "one", 1), 2));
  REQUIRE(store->add_deck(deck(ann, "two", 2), 2));
  CHECK_FALSE(store->add_deck(deck(ann, "three", 3), 2));
  CHECK(store->decks_of(ann).size() == 2);
  CHECK(store->add_deck(deck(ben, "one", 4), 2));
}

TEMPLATE_TEST_CASE("only the owner replaces or deletes a deck, and deleting an account deletes its decks",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store = backend.open_accounts();
  const auto ann = *store->create_account("Ann", "ann", "$argon2id$x", 1);
  const auto ben = *store->create_account("Ben", "ben", "$argon2id$x", 1);
  const int64_t id = *store->add_deck(deck(ann, "mine", 1), 100);

  storage::DeckRecord renamed = deck(ann, "renamed", 5);
  renamed.id = id;
  renamed.is_public = true;
  CHECK(store->replace_deck(renamed));
  CHECK(store->find_deck(id)->name == "renamed");
  CHECK(store->find_deck(id)->is_public);
  CHECK(store->find_deck(id)->updated_ms == 5);

  storage::DeckRecord taken = renamed;
  taken.owner = ben;
  taken.name = "taken";
  CHECK_FALSE(store->replace_deck(taken));
  CHECK_FALSE(store->delete_deck(id, ben));
  CHECK(store->find_deck(id)->name == "renamed");

  CHECK(store->delete_deck(id, ann));
  CHECK_FALSE(store->delete_deck(id, ann));
  CHECK_FALSE(store->find_deck(id));

  REQUIRE(store->add_deck(deck(ann, "again", 6), 100));
  store->delete_account(ann, 7);
  CHECK(store->decks_of(ann).empty());
}

TEST_CASE("migration 8 brings a SQLite store of version 7 the saved decks and keeps its accounts") {
  testing::ScratchDir dir;
  const std::string path = dir.file("d.db");
  {
    storage::Database db(path, true);
    storage::migrate(db, 7);
    db.exec(
        "INSERT INTO accounts (name, name_key, password_hash, created_at) "
        "VALUES ('Ann', 'ann', '$argon2id$x', 1)");
  }
  storage::SqliteAccountStore store(path);
  const auto ann = store.find_by_key("ann");
  REQUIRE(ann);
  REQUIRE(store.add_deck(deck(ann->id, "first", 1), 100));
  CHECK(store.decks_of(ann->id).size() == 1);
  storage::Database db(path, false);
  CHECK(storage::schema_version(db) == storage::kSchemaVersion);
}

TEST_CASE("PostgreSQL migration 4 brings a database of version 3 the saved decks") {
  PostgresBackend backend;
  backend.open_accounts();
  // Version 3 as it was: migration 4 undone by hand.
  backend.exec(
      "DROP TABLE tournaments; DROP TABLE decks; UPDATE schema_version SET version = 3; "
      "INSERT INTO accounts (name, name_key, password_hash, created_at) "
      "VALUES ('Ann', 'ann', '$argon2id$x', 1)");
  auto store = backend.open_accounts();
  const auto ann = store->find_by_key("ann");
  REQUIRE(ann);
  REQUIRE(store->add_deck(deck(ann->id, "first", 1), 100));
  CHECK(store->decks_of(ann->id).size() == 1);
  storage::PgConnection db(backend.url);
  CHECK(storage::pg_schema_version(db) == storage::kPgSchemaVersion);
}
