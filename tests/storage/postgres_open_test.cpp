// Opening the PostgreSQL stores: the schema is created once, and a database that cannot be
// reached or is not a Duelhall store is refused with the reason, never taken over.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "storage_pg/pg_schema.hpp"
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

TEST_CASE("a PostgreSQL store whose connection was cut reconnects for the next call") {
  testing::PostgresBackend backend;
  auto store = backend.open_matches();
  const auto registry = testing::toy_registry();
  const auto first = testing::store_match(*store, *testing::play_toy_match(registry, 1, 3), 1);
  // What a restart of PostgreSQL or a dropped link does to the store's connection.
  backend.exec(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
      "AND pid <> pg_backend_pid()");
  // The call that finds the connection gone fails with the reason; the next one reconnects.
  try {
    store->load_match(first);
  } catch (const storage::StoreError& e) {
    CHECK_THAT(e.what(), Contains("PostgreSQL"));
  }
  CHECK(store->load_match(first)->steps.size() == 3);
  store->append({first, 3, 0, engine::Action::make(1), 5});
  CHECK(store->load_match(first)->steps.size() == 4);
}
