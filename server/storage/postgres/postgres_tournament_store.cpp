// PostgresAccountStore's tournament half: the tournaments of migration 5 of pg_schema.cpp
// (tournament_store.hpp), on the accounts' connection. The same queries as
// sqlite_tournament_store.cpp, in PostgreSQL's dialect.
#include "storage/postgres/postgres_account_store.hpp"

namespace duelhall::storage {
namespace {

std::vector<TournamentRecord> read_all(const PgResult& rows) {
  std::vector<TournamentRecord> out;
  for (int r = 0; r < rows.rows(); ++r) out.push_back(tournament_from_row(PgRow{rows, r}));
  return out;
}

}  // namespace

int64_t PostgresAccountStore::add_tournament(const TournamentRecord& t) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult id = db_->query(
      "INSERT INTO tournaments (name, ruleset, status, start_ms, updated_ms, state) "
      "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
      PgParams()
          .add(t.name)
          .add(t.ruleset)
          .add(int64_t{t.status})
          .add(t.start_ms)
          .add(t.updated_ms)
          .add(t.state));
  return id.integer(0, 0);
}

bool PostgresAccountStore::save_tournament(const TournamentRecord& t) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult done = db_->query(
      "UPDATE tournaments SET status = $1, updated_ms = $2, state = $3 WHERE id = $4",
      PgParams().add(int64_t{t.status}).add(t.updated_ms).add(t.state).add(t.id));
  return done.affected() == 1;
}

std::optional<TournamentRecord> PostgresAccountStore::find_tournament(int64_t id) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult rows =
      db_->query(std::string(kTournamentColumns) + "WHERE id = $1", PgParams().add(id));
  if (rows.rows() == 0) return std::nullopt;
  return tournament_from_row(PgRow{rows, 0});
}

std::vector<TournamentRecord> PostgresAccountStore::open_tournaments() {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return read_all(
      db_->query(std::string(kTournamentColumns) + "WHERE status < 2 ORDER BY id", PgParams()));
}

std::vector<TournamentRecord> PostgresAccountStore::past_tournaments(int64_t limit) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return read_all(db_->query(std::string(kTournamentColumns) +
                                 "WHERE status >= 2 ORDER BY updated_ms DESC, id DESC LIMIT $1",
                             PgParams().add(limit)));
}

}  // namespace duelhall::storage
