// The store's schema and its migrations. The schema_version table holds one row: the number of
// migrations applied. At open, the migrations after it are applied in order, each in its own
// transaction with the version bump, so a crash mid-upgrade leaves a whole earlier version. A
// database newer than this code is refused rather than guessed at. Never edit a released
// migration: add the next one.
#pragma once

#include "storage/sqlite/sqlite.hpp"

namespace duelhall::storage {

inline constexpr int kSchemaVersion = 9;

// 0 for a database without the schema_version table.
int schema_version(Database& db);

// Applies the migrations up to `target` (the current version unless a test builds an older
// store). Throws StoreError for a newer schema or a database that is not a Duelhall store.
void migrate(Database& db, int target = kSchemaVersion);

}  // namespace duelhall::storage
