// The tables both store backends create, written once: SQLite's and PostgreSQL's migrations spell
// a few words differently (an auto-numbered key, a 64-bit integer, a boolean, SQLite's WITHOUT
// ROWID), and nothing else. Each backend's schema file applies its own spelling.
#pragma once

#include <string>
#include <string_view>

namespace duelhall::storage {

// How one database spells each placeholder of the shared text.
struct SqlDialect {
  std::string_view serial_key;     // {serial}: an auto-numbered key never reused
  std::string_view integer;        // {int}: a 64-bit integer
  std::string_view boolean;        // {bool}
  std::string_view without_rowid;  // {without_rowid}: after a table keyed by its columns
};

inline constexpr SqlDialect kSqliteDialect{"INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER",
                                           "INTEGER", " WITHOUT ROWID"};
inline constexpr SqlDialect kPostgresDialect{"BIGSERIAL PRIMARY KEY", "BIGINT", "BOOLEAN", ""};

// `sql` with every placeholder spelt as `dialect` spells it. Throws std::logic_error on an
// unknown placeholder (a typo in the shared text must not reach a database).
std::string in_dialect(std::string_view sql, const SqlDialect& dialect);

// Roles, bans, mutes, reports, the audit log and ignores (docs/moderation.md): SQLite's
// migration 5, PostgreSQL's 2.
extern const std::string_view kModerationTables;

// Tournaments (tournament_store.hpp): SQLite's migration 9, PostgreSQL's 5.
extern const std::string_view kTournamentTables;

}  // namespace duelhall::storage
