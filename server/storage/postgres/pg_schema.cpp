#include "storage/postgres/pg_schema.hpp"

#include <array>
#include <string>
#include <string_view>

#include "storage/schema_text.hpp"

namespace duelhall::storage {
namespace {

// The advisory lock under which migrations run: any number, the same for every node.
constexpr int64_t kMigrationLock = 0x4475656c68616c6c;  // "Duelhall"

// Migration i (1-based) brings the schema from version i-1 to i. The tables mirror SQLite's
// (schema.cpp), with the same names and meanings.
// Each is written in the shared text's placeholders (schema_text.hpp), spelt for PostgreSQL when
// applied.
const std::array<std::string_view, kPgSchemaVersion> kMigrations = {
    R"sql(
-- The highest match id ever given out: ids are never reused, even once pruned, and a node may
-- reserve ids ahead (reserve_match_ids), as SQLite's AUTOINCREMENT counter allows.
CREATE TABLE match_ids (last BIGINT NOT NULL);
INSERT INTO match_ids VALUES (0);
CREATE TABLE matches (
  id BIGINT PRIMARY KEY,
  ruleset TEXT NOT NULL,
  seat_count INTEGER NOT NULL,
  params TEXT NOT NULL,
  engine_version TEXT NOT NULL,
  commitment TEXT NOT NULL,
  seed BYTEA NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('live', 'finished', 'abandoned')),
  winners BIGINT,
  scores TEXT,
  result TEXT,
  created_at BIGINT NOT NULL,
  ended_at BIGINT,
  server_record BYTEA
);
CREATE INDEX matches_status_ended ON matches(status, ended_at);
CREATE INDEX matches_ruleset_ended ON matches(ruleset, ended_at);
CREATE TABLE match_seats (
  match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL,
  name TEXT NOT NULL,
  seat_option TEXT NOT NULL,
  token_hash BYTEA,
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_token ON match_seats(token_hash) WHERE token_hash IS NOT NULL;
CREATE INDEX match_seats_name ON match_seats(lower(name));
CREATE TABLE actions (
  match_id BIGINT NOT NULL,
  idx BIGINT NOT NULL,
  seat INTEGER NOT NULL,
  code BIGINT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (match_id, idx)
);
-- The owner of each claimed match and its fencing epoch: appends below it are refused.
CREATE TABLE match_owners (
  match_id BIGINT PRIMARY KEY,
  epoch BIGINT NOT NULL,
  node TEXT NOT NULL
);
CREATE TABLE accounts (
  id BIGSERIAL PRIMARY KEY,
  name TEXT,
  name_key TEXT UNIQUE,
  password_hash TEXT,
  guest_hash BYTEA UNIQUE,
  created_at BIGINT NOT NULL,
  deleted_at BIGINT
);
CREATE TABLE sessions (
  token_hash BYTEA PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE ratings (
  account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  ruleset TEXT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  games BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, ruleset)
);
CREATE INDEX ratings_board ON ratings(ruleset, rating DESC);
CREATE TABLE match_accounts (
  match_id BIGINT NOT NULL,
  seat INTEGER NOT NULL,
  account_id BIGINT NOT NULL,
  rated BOOLEAN NOT NULL,
  rating_before DOUBLE PRECISION,
  rating_after DOUBLE PRECISION,
  deviation_after DOUBLE PRECISION,
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_accounts_account ON match_accounts(account_id, match_id);
)sql",
    // 2: moderation: roles, bans, mutes, reports, the audit log, ignores (SQLite's migration 5;
    // postgres_moderation_store.cpp, docs/moderation.md).
    kModerationTables,
    // 3: the accounts each account follows (SQLite's migration 7; docs/pairing.md), in the order
    // followed (the id).
    R"sql(
CREATE TABLE follows (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL,
  followed_id BIGINT NOT NULL,
  UNIQUE (account_id, followed_id)
);
)sql",
    // 4: saved decks (SQLite's migration 8).
    R"sql(
CREATE TABLE decks (
  id BIGSERIAL PRIMARY KEY,
  owner BIGINT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  ruleset TEXT NOT NULL,
  list TEXT NOT NULL,
  side TEXT NOT NULL,
  cards BIGINT NOT NULL,
  public BOOLEAN NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX decks_by_owner ON decks (owner, updated_at);
)sql",
    // 5: tournaments (SQLite's migration 9), in the text both backends share.
    kTournamentTables,
};

bool has_schema_table(PgConnection& db) {
  return db.query("SELECT to_regclass('schema_version') IS NOT NULL").boolean(0, 0);
}

}  // namespace

int pg_schema_version(PgConnection& db) {
  if (!has_schema_table(db)) return 0;
  return static_cast<int>(db.query("SELECT version FROM schema_version").integer(0, 0));
}

void pg_migrate(PgConnection& db) {
  PgTransaction lock_holder(db);
  db.query("SELECT pg_advisory_xact_lock($1)", PgParams().add(kMigrationLock));
  if (!has_schema_table(db)) {
    const int64_t tables =
        db.query("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
            .integer(0, 0);
    if (tables != 0) {
      throw StoreError("the database holds tables but no schema_version: not a Duelhall store");
    }
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    db.exec("INSERT INTO schema_version VALUES (0)");
  }
  const int current = pg_schema_version(db);
  if (current > kPgSchemaVersion) {
    throw StoreError("the database has schema version " + std::to_string(current) +
                     ", newer than this Duelhall knows (" + std::to_string(kPgSchemaVersion) +
                     "); run a newer Duelhall or restore a backup");
  }
  // One transaction for all: PostgreSQL's DDL is transactional, so a failed migration leaves the
  // version before it whole.
  for (int version = current + 1; version <= kPgSchemaVersion; ++version) {
    db.exec(in_dialect(kMigrations[static_cast<size_t>(version - 1)], kPostgresDialect));
    db.exec("UPDATE schema_version SET version = " + std::to_string(version));
  }
  lock_holder.commit();
}

}  // namespace duelhall::storage
