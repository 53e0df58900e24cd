// Checks on a database file before SQLite opens it, for damage SQLite itself would not report:
// SQLite treats an empty file as a new database (a file truncated to nothing would silently
// become an empty store), and reads a file cut short as if the missing pages were never written
// until a query happens to touch them.
#pragma once

#include <string>

namespace duelhall::storage {

// Throws StoreError with a clear reason when `path` exists but is empty, does not start with the
// SQLite header, or is shorter than the page count its header declares. A missing file is fine
// (it will be created). Also refuses a write-ahead log (`path`-wal) with a damaged header, which
// SQLite would ignore, dropping the transactions in it.
void check_database_file(const std::string& path);

}  // namespace duelhall::storage
