// Opening the PostgreSQL stores: the schema is created once, and a database that cannot be
// reached or is not a Duelhall store is refused with the reason, never taken over.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "storage/postgres/pg_schema.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using Catch::Contains;

TEST_CASE("a PostgreSQL store that cannot be reached is refused at open with the reason") {
  const auto& server = testing::ThrowawayPostgres::shared();
  // The server's port with a database that does not exist, and a port nothing listens on.
  CHECK_THROWS_WITH(storage::PostgresMatchStore(server.url("absent")),
                    Contains("cannot open the PostgreSQL match store") && Contains("absent"));
  const std::string refused =
      "postgresql://duelhall:secret@127.0.0.1:" + std::to_string(server.port() + 1) + "/x";
  CHECK_THROWS_WITH(storage::PostgresAccountStore(refused),
                    Contains("cannot connect to PostgreSQL at") && !Contains("secret"));
}

TEST_CASE("a PostgreSQL database with other tables, or a newer schema, is refused") {
  testing::PostgresBackend foreign;
  foreign.exec("CREATE TABLE invoices (id BIGINT)");
  CHECK_THROWS_WITH(foreign.open_matches(), Contains("not a Duelhall store"));

  testing::PostgresBackend newer;
  newer.open_accounts();  // creates the schema; a second store then finds it current
  {
    storage::PgConnection db(newer.url);
    CHECK(storage::pg_schema_version(db) == storage::kPgSchemaVersion);
  }
  CHECK(newer.open_matches()->last_match_id() == 0);
  newer.exec("UPDATE schema_version SET version = version + 1");
  CHECK_THROWS_WITH(newer.open_matches(), Contains("newer than this Duelhall knows"));
}

namespace {

// What a dropped link or a restart of PostgreSQL does to every connection of the database.
void cut_connections(testing::PostgresBackend& backend) {
  backend.exec(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
      "AND pid <> pg_backend_pid()");
}

}  // namespace

TEST_CASE("a PostgreSQL store whose connection was cut serves the next call without failing") {
  testing::PostgresBackend backend;
  auto store = backend.open_matches();
  auto accounts = backend.open_accounts();
  const auto registry = testing::toy_registry();
  const auto first = testing::store_match(*store, *testing::play_toy_match(registry, 1, 3), 1);
  // Each kind of call finds its connection cut since its last use, and succeeds all the same:
  // a read on its own, a transaction, a write on its own, and an insert that is not idempotent.
  cut_connections(backend);
  CHECK(store->load_match(first)->steps.size() == 3);
  cut_connections(backend);
  store->append({first, 3, 0, engine::Action::make(1), 5});
  CHECK(store->load_match(first)->steps.size() == 4);
  cut_connections(backend);
  CHECK(store->last_match_id() >= first);
  cut_connections(backend);
  store->reserve_match_ids(first + 10);
  CHECK(store->last_match_id() == first + 10);
  cut_connections(backend);
  const auto ann = accounts->create_account("Ann", "ann", "hash", 1);
  REQUIRE(ann);
  cut_connections(backend);
  CHECK(accounts->find_account(*ann)->name == "Ann");
  cut_connections(backend);
  CHECK(accounts->guest_account(std::string(32, 'g'), 2) > *ann);
  cut_connections(backend);
  CHECK(accounts->add_audit({0, "mod", "ban", "Ben", "spam", 3, 0}) > 0);
  CHECK(accounts->audit(std::nullopt, 10).size() == 1);
}

TEST_CASE("a PostgreSQL store outlives a restart of PostgreSQL, and fails only while it is down") {
  testing::ThrowawayPostgres server;
  const std::string url = server.new_database();
  storage::PostgresMatchStore store(url);
  const auto registry = testing::toy_registry();
  const auto first = testing::store_match(store, *testing::play_toy_match(registry, 1, 3), 1);
  server.stop_server();
  CHECK_THROWS_AS(store.load_match(first), storage::StoreError);
  CHECK_THROWS_AS(store.append({first, 3, 0, engine::Action::make(1), 5}), storage::StoreError);
  server.start_server();
  // The first call after the return succeeds: nothing was written while it was down.
  store.append({first, 3, 0, engine::Action::make(1), 5});
  CHECK(store.load_match(first)->steps.size() == 4);
}
