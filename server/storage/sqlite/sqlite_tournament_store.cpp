// SqliteAccountStore's tournament half: the tournaments of migration 9 (tournament_store.hpp), on
// the accounts' connection.
#include "storage/sqlite/sqlite_account_store.hpp"

namespace duelhall::storage {

int64_t SqliteAccountStore::add_tournament(const TournamentRecord& t) {
  std::lock_guard lock(mutex_);
  Statement insert(*db_,
                   "INSERT INTO tournaments (name, ruleset, status, start_ms, updated_ms, state) "
                   "VALUES (?, ?, ?, ?, ?, ?)");
  insert.bind(1, t.name)
      .bind(2, t.ruleset)
      .bind(3, int64_t{t.status})
      .bind(4, t.start_ms)
      .bind(5, t.updated_ms)
      .bind(6, t.state)
      .run();
  return db_->query_int("SELECT last_insert_rowid()");
}

bool SqliteAccountStore::save_tournament(const TournamentRecord& t) {
  std::lock_guard lock(mutex_);
  Statement update(*db_,
                   "UPDATE tournaments SET status = ?, updated_ms = ?, state = ? WHERE id = ?");
  update.bind(1, int64_t{t.status}).bind(2, t.updated_ms).bind(3, t.state).bind(4, t.id).run();
  return db_->query_int("SELECT changes()") == 1;
}

std::optional<TournamentRecord> SqliteAccountStore::find_tournament(int64_t id) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kTournamentColumns) + "WHERE id = ?");
  stmt.bind(1, id);
  if (!stmt.step()) return std::nullopt;
  return tournament_from_row(StatementRow{stmt});
}

std::vector<TournamentRecord> SqliteAccountStore::open_tournaments() {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kTournamentColumns) + "WHERE status < 2 ORDER BY id");
  std::vector<TournamentRecord> out;
  while (stmt.step()) out.push_back(tournament_from_row(StatementRow{stmt}));
  return out;
}

std::vector<TournamentRecord> SqliteAccountStore::past_tournaments(int64_t limit) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, std::string(kTournamentColumns) +
                           "WHERE status >= 2 ORDER BY updated_ms DESC, id DESC LIMIT ?");
  stmt.bind(1, limit);
  std::vector<TournamentRecord> out;
  while (stmt.step()) out.push_back(tournament_from_row(StatementRow{stmt}));
  return out;
}

}  // namespace duelhall::storage
