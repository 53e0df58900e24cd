#include "storage/schema_text.hpp"

#include <stdexcept>

namespace duelhall::storage {

std::string in_dialect(std::string_view sql, const SqlDialect& dialect) {
  std::string out;
  out.reserve(sql.size() + sql.size() / 4);
  while (!sql.empty()) {
    const size_t open = sql.find('{');
    out.append(sql.substr(0, open));
    if (open == std::string_view::npos) break;
    const size_t close = sql.find('}', open);
    if (close == std::string_view::npos) throw std::logic_error("an unclosed { in shared SQL");
    const std::string_view name = sql.substr(open + 1, close - open - 1);
    if (name == "serial") {
      out.append(dialect.serial_key);
    } else if (name == "int") {
      out.append(dialect.integer);
    } else if (name == "bool") {
      out.append(dialect.boolean);
    } else if (name == "without_rowid") {
      out.append(dialect.without_rowid);
    } else {
      throw std::logic_error("an unknown placeholder in shared SQL: {" + std::string(name) + "}");
    }
    sql.remove_prefix(close + 1);
  }
  return out;
}

const std::string_view kModerationTables = R"sql(
ALTER TABLE accounts ADD COLUMN role TEXT;  -- 'admin', 'moderator' or null
CREATE TABLE bans (
  id {serial},
  account_id {int},            -- an account ban
  account_name TEXT NOT NULL,  -- its name then ('' for an address ban)
  address TEXT NOT NULL,       -- an address ban: 'base/prefix' ('' for an account ban)
  reason TEXT NOT NULL,
  by_name TEXT NOT NULL,
  created_at {int} NOT NULL,
  expires_at {int},            -- null: for good
  lifted_at {int}              -- set by an unban
);
CREATE INDEX bans_active ON bans(lifted_at, expires_at);
CREATE TABLE mutes (
  account_id {int} PRIMARY KEY,
  reason TEXT NOT NULL,
  by_name TEXT NOT NULL,
  created_at {int} NOT NULL,
  expires_at {int}             -- null: for good
);
CREATE TABLE reports (
  id {serial},
  reporter TEXT NOT NULL,
  reporter_account {int},
  target_name TEXT NOT NULL,
  target_account {int},
  target_player {int},
  message TEXT NOT NULL,       -- the reported chat line ('' for a report of a player)
  match_id {int},
  reason TEXT NOT NULL,
  created_at {int} NOT NULL,
  resolved_at {int},
  resolved_by TEXT,
  note TEXT
);
CREATE INDEX reports_open ON reports(resolved_at, id);
CREATE TABLE audit_log (
  id {serial},
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at {int} NOT NULL,
  expires_at {int}
);
CREATE TABLE ignores (
  account_id {int} NOT NULL,
  ignored_id {int} NOT NULL,
  PRIMARY KEY (account_id, ignored_id)
){without_rowid};
)sql";

}  // namespace duelhall::storage

namespace duelhall::storage {

const std::string_view kTournamentTables = R"sql(
CREATE TABLE tournaments (
  id {serial},
  name TEXT NOT NULL,
  ruleset TEXT NOT NULL,
  status {int} NOT NULL,       -- TournamentStatus: 0 registering, 1 running, 2 finished, 3 cancelled
  start_ms {int} NOT NULL,
  updated_ms {int} NOT NULL,
  state TEXT NOT NULL          -- the tournament room's encoding of everything it holds
);
CREATE INDEX tournaments_by_status ON tournaments(status, updated_ms);
)sql";

}  // namespace duelhall::storage
