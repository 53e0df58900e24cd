// The PostgreSQL schema and its migrations, as sqlite/schema.hpp is SQLite's: schema_version
// holds the number of migrations applied, each is applied in its own transaction with the version
// bump, and a database newer than this code, or one that holds other tables, is refused. Both
// stores (matches and accounts) open the same database and run this at open; an advisory lock
// keeps two nodes starting at once from migrating twice.
#pragma once

#include "storage/postgres/pg.hpp"

namespace duelhall::storage {

inline constexpr int kPgSchemaVersion = 5;

// 0 for a database without the schema_version table.
int pg_schema_version(PgConnection& db);

// Throws StoreError for a newer schema or a database that is not a Duelhall store.
void pg_migrate(PgConnection& db);

}  // namespace duelhall::storage
