#include "storage/sqlite/schema.hpp"

#include <array>
#include <string>
#include <string_view>

#include "storage/schema_text.hpp"

namespace duelhall::storage {
namespace {

// Migration i (1-based) brings the schema from version i-1 to i.
// Each is written in the shared text's placeholders (schema_text.hpp), spelt for SQLite when
// applied.
const std::array<std::string_view, kSchemaVersion> kMigrations = {
    // 1: matches, their seats, their action logs.
    R"sql(
CREATE TABLE matches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so replay links stay unambiguous
  ruleset TEXT NOT NULL,
  seat_count INTEGER NOT NULL,
  params TEXT NOT NULL,                  -- resolved parameters, name=value&... (text_escape.hpp)
  engine_version TEXT NOT NULL,
  commitment TEXT NOT NULL,              -- SHA-256 hex published at creation
  seed BLOB NOT NULL,                    -- 32 bytes; the API reveals it only once ended
  status TEXT NOT NULL CHECK (status IN ('live', 'finished', 'abandoned')),
  winners INTEGER,                       -- seat bitmask, once ended
  scores TEXT,                           -- comma-separated, once ended
  result TEXT,                           -- the outcome's reason, once ended
  created_at INTEGER NOT NULL,           -- Unix milliseconds
  ended_at INTEGER
);
CREATE TABLE match_seats (
  match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL,
  name TEXT NOT NULL,
  seat_option TEXT NOT NULL,
  token_hash BLOB,                       -- SHA-256 of the reconnect token; null for bots
  PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE UNIQUE INDEX match_seats_token ON match_seats(token_hash) WHERE token_hash IS NOT NULL;
-- No foreign key: MatchStore checks every append against the live matches itself (a per-row
-- key check would cost a lookup per append), and prune deletes a match's actions with it.
CREATE TABLE actions (
  match_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,                  -- the step's index in the match's history
  seat INTEGER NOT NULL,
  code INTEGER NOT NULL,                 -- the 64-bit action code as a signed integer
  at INTEGER NOT NULL,                   -- Unix milliseconds
  PRIMARY KEY (match_id, idx)
) WITHOUT ROWID;
)sql",
    // 2: indexes for the replay listings (recent, by ruleset, by player) and retention.
    R"sql(
CREATE INDEX matches_status_ended ON matches(status, ended_at);
CREATE INDEX matches_ruleset_ended ON matches(ruleset, ended_at);
CREATE INDEX match_seats_name ON match_seats(name COLLATE NOCASE);
)sql",
    // 3: the live server's own record of a match (its hosting settings, opaque to the store),
    // and a player's token may sit in several live matches at once (one token per player).
    R"sql(
ALTER TABLE matches ADD COLUMN server_record BLOB;
DROP INDEX match_seats_token;
CREATE INDEX match_seats_token ON match_seats(token_hash) WHERE token_hash IS NOT NULL;
)sql",
    // 4: accounts, their sessions and ratings, and which accounts sat in each match
    // (sqlite_account_store.cpp; docs/accounts.md).
    R"sql(
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT,                   -- null for a guest and once deleted
  name_key TEXT UNIQUE,        -- the name lower-cased: no two accounts differ by case only
  password_hash TEXT,          -- Argon2id (libsodium crypto_pwhash_str); null for a guest
  guest_hash BLOB UNIQUE,      -- SHA-256 of a guest's browser token; null once registered
  created_at INTEGER NOT NULL, -- Unix milliseconds
  deleted_at INTEGER
);
CREATE TABLE sessions (
  token_hash BLOB PRIMARY KEY, -- SHA-256 of the session token; the token itself is never stored
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE ratings (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  ruleset TEXT NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  games INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, ruleset)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(ruleset, rating DESC);
-- No foreign key to matches: the match row is written by the group-commit log on its own
-- connection, possibly after this one.
CREATE TABLE match_accounts (
  match_id INTEGER NOT NULL,
  seat INTEGER NOT NULL,
  account_id INTEGER NOT NULL,
  rated INTEGER NOT NULL,
  rating_before REAL,          -- rated matches, once their ratings are applied
  rating_after REAL,
  deviation_after REAL,
  PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_accounts_account ON match_accounts(account_id, match_id);
)sql",
    // 5: moderation: roles, bans, mutes, reports, the audit log, ignores
    // (sqlite_moderation_store.cpp; docs/moderation.md).
    kModerationTables,
    // 6: the owner of each claimed match and its fencing epoch (match_store.hpp claim_match);
    // a single server never claims, and its appends carry epoch 0.
    R"sql(
CREATE TABLE match_owners (
  match_id INTEGER PRIMARY KEY,  -- no foreign key: a match may be claimed before it is stored
  epoch INTEGER NOT NULL,
  node TEXT NOT NULL
);
)sql",
    // 7: the accounts each account follows (sqlite_moderation_store.cpp; docs/pairing.md), in
    // the order followed (the rowid).
    R"sql(
CREATE TABLE follows (
  account_id INTEGER NOT NULL,
  followed_id INTEGER NOT NULL,
  UNIQUE (account_id, followed_id)
);
)sql",
    // 8: saved decks (deck_store.hpp): an account's deck lists and setups, as written.
    R"sql(
CREATE TABLE decks (
  id INTEGER PRIMARY KEY,
  owner INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  ruleset TEXT NOT NULL,
  list TEXT NOT NULL,
  side TEXT NOT NULL,
  cards INTEGER NOT NULL,
  public INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX decks_by_owner ON decks (owner, updated_at);
)sql",
    // 9: tournaments (tournament_store.hpp), in the text both backends share.
    kTournamentTables,
};

bool has_table(Database& db, const char* name) {
  Statement stmt(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  stmt.bind(1, std::string_view(name));
  return stmt.step();
}

}  // namespace

int schema_version(Database& db) {
  if (!has_table(db, "schema_version")) return 0;
  return static_cast<int>(db.query_int("SELECT version FROM schema_version"));
}

void migrate(Database& db, int target) {
  if (!has_table(db, "schema_version")) {
    if (db.query_int("SELECT count(*) FROM sqlite_master") != 0) {
      throw StoreError("the database holds tables but no schema_version: not a Duelhall store");
    }
    Transaction tx(db);
    db.exec(
        "CREATE TABLE schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version VALUES (0);");
    tx.commit();
  }
  const int current = schema_version(db);
  if (current > kSchemaVersion) {
    throw StoreError("the database has schema version " + std::to_string(current) +
                     ", newer than this Duelhall knows (" + std::to_string(kSchemaVersion) +
                     "); run a newer Duelhall or restore a backup");
  }
  for (int version = current + 1; version <= target; ++version) {
    Transaction tx(db);
    db.exec(in_dialect(kMigrations[static_cast<size_t>(version - 1)], kSqliteDialect));
    db.exec("UPDATE schema_version SET version = " + std::to_string(version));
    tx.commit();
  }
}

}  // namespace duelhall::storage
