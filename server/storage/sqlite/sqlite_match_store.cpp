#include "storage/sqlite/sqlite_match_store.hpp"

#include <sqlite3.h>

#include "fairness/commitment.hpp"
#include "fairness/text_escape.hpp"
#include "storage/sqlite/file_check.hpp"
#include "storage/sqlite/schema.hpp"

namespace duelhall::storage {
namespace {

std::string_view seed_bytes(const engine::Seed& seed) {
  return {reinterpret_cast<const char*>(seed.data()), seed.size()};
}

void check_integrity(Database& db, bool full) {
  Statement check(db, full ? "PRAGMA integrity_check(20)" : "PRAGMA quick_check(20)");
  std::string problems;
  while (check.step()) {
    std::string line = check.column_text(0);
    if (line == "ok") return;
    problems += (problems.empty() ? "" : "; ") + line;
  }
  throw StoreError("integrity check failed: " + problems);
}

}  // namespace

SqliteMatchStore::SqliteMatchStore(const std::string& path, StoreOptions options) : path_(path) {
  check_database_file(path);
  db_ = std::make_unique<Database>(path, options.create);
  try {
    db_->exec("PRAGMA busy_timeout = 5000");
    // Reading the journal mode is the first access to the file: a damaged header fails here.
    if (db_->query_text("PRAGMA journal_mode = WAL") != "wal") {
      throw StoreError("cannot switch the database to WAL mode");
    }
    db_->exec(options.sync == StoreOptions::Sync::kFull ? "PRAGMA synchronous = FULL"
                                                        : "PRAGMA synchronous = NORMAL");
    db_->exec("PRAGMA foreign_keys = ON");
    check_integrity(*db_, options.full_integrity_check);
    migrate(*db_);
  } catch (const StoreError& e) {
    throw StoreError("cannot open the match store " + path + ": " + e.what());
  }
  insert_match_ = std::make_unique<Statement>(
      *db_,
      "INSERT INTO matches (ruleset, seat_count, params, engine_version, commitment, seed, "
      "status, created_at, id, server_record) VALUES (?, ?, ?, ?, ?, ?, 'live', ?, ?, ?)");
  insert_seat_ = std::make_unique<Statement>(
      *db_,
      "INSERT INTO match_seats (match_id, seat, name, seat_option, token_hash) "
      "VALUES (?, ?, ?, ?, ?)");
  insert_action_ = std::make_unique<Statement>(
      *db_, "INSERT INTO actions (match_id, idx, seat, code, at) VALUES (?, ?, ?, ?, ?)");
  match_is_live_ = std::make_unique<Statement>(
      *db_,
      "SELECT status, (SELECT max(idx) FROM actions WHERE match_id = ?1), "
      "(SELECT epoch FROM match_owners WHERE match_id = ?1) FROM matches WHERE id = ?1");
  end_match_ = std::make_unique<Statement>(
      *db_,
      "UPDATE matches SET status = ?, winners = ?, scores = ?, result = ?, ended_at = ? "
      "WHERE id = ? AND status = 'live'");
}

SqliteMatchStore::~SqliteMatchStore() {
  // Statements must be finalised before the connection closes.
  insert_match_.reset();
  insert_seat_.reset();
  insert_action_.reset();
  match_is_live_.reset();
  end_match_.reset();
}

void SqliteMatchStore::reset_statements() {
  for (auto* stmt :
       {&insert_match_, &insert_seat_, &insert_action_, &match_is_live_, &end_match_}) {
    (*stmt)->reset();
  }
}

MatchId SqliteMatchStore::insert_match(const NewMatch& match) {
  const auto& config = match.config;
  insert_match_->bind(1, config.ruleset)
      .bind(2, int64_t{config.seats})
      .bind(3, fairness::encode_params(config.params.values()))
      .bind(4, match.engine_version)
      .bind(5, fairness::seed_commitment(config.seed, match.engine_version))
      .bind_blob(6, seed_bytes(config.seed))
      .bind(7, match.created_ms);
  if (match.id != 0) {
    insert_match_->bind(8, match.id);
  } else {
    insert_match_->bind_null(8);  // the next id
  }
  insert_match_->bind_blob(9, match.server_record);
  insert_match_->run();
  const MatchId id = sqlite3_last_insert_rowid(db_->handle());
  for (int s = 0; s < config.seats; ++s) {
    const auto i = static_cast<size_t>(s);
    insert_seat_->bind(1, id).bind(2, int64_t{s});
    insert_seat_->bind(3, i < match.names.size() ? match.names[i] : std::string());
    insert_seat_->bind(4, i < config.seat_options.size() ? config.seat_options[i] : std::string());
    if (i < match.reconnect_tokens.size() && !match.reconnect_tokens[i].empty()) {
      insert_seat_->bind_blob(5, token_hash(match.reconnect_tokens[i]));
    } else {
      insert_seat_->bind_null(5);
    }
    insert_seat_->run();
  }
  if (match.epoch != 0) {
    Statement owner(*db_, "INSERT INTO match_owners (match_id, epoch, node) VALUES (?, ?, ?)");
    owner.bind(1, id).bind(2, match.epoch).bind(3, match.node).run();
  }
  return id;
}

void SqliteMatchStore::set_token(MatchId match, engine::Seat seat, std::string_view token) {
  std::lock_guard lock(mutex_);
  Statement update(*db_,
                   "UPDATE match_seats SET token_hash = ? WHERE match_id = ? AND seat = ? AND "
                   "(SELECT status FROM matches WHERE id = match_id) = 'live'");
  update.bind_blob(1, token_hash(token)).bind(2, match).bind(3, int64_t{seat});
  update.run();
  if (db_->changes() != 1) {
    throw StoreError("no seat " + std::to_string(seat) + " in live match " + std::to_string(match));
  }
}

MatchId SqliteMatchStore::last_match_id() {
  std::lock_guard lock(mutex_);
  // AUTOINCREMENT keeps the highest id ever used in sqlite_sequence, even once it is pruned.
  return db_->query_int(
      "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'matches'), 0), "
      "coalesce((SELECT max(id) FROM matches), 0))");
}

void SqliteMatchStore::reserve_match_ids(MatchId up_to) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  // AUTOINCREMENT's counter: SQLite documents it as writable, and never numbers below it.
  Statement raise(*db_, "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'matches'");
  raise.bind(1, up_to);
  raise.run();
  if (db_->changes() == 0) {
    Statement first(*db_, "INSERT INTO sqlite_sequence (name, seq) VALUES ('matches', ?)");
    first.bind(1, up_to);
    first.run();
  }
  tx.commit();
}

std::optional<TokenSeat> SqliteMatchStore::find_token(std::string_view token) {
  std::lock_guard lock(mutex_);
  Statement find(*db_,
                 "SELECT s.match_id, s.seat FROM match_seats s JOIN matches m ON m.id = s.match_id "
                 "WHERE s.token_hash = ? AND m.status = 'live'");
  find.bind_blob(1, token_hash(token));
  if (!find.step()) return std::nullopt;
  return TokenSeat{find.column_int(0), static_cast<engine::Seat>(find.column_int(1))};
}

SqliteMatchStore::LogState* SqliteMatchStore::log_state(MatchId match) {
  if (auto it = log_states_.find(match); it != log_states_.end()) {
    return &touch(match, it->second, false);
  }
  match_is_live_->bind(1, match);
  if (!match_is_live_->step()) {
    match_is_live_->reset();
    return nullptr;
  }
  const bool live = match_is_live_->column_text(0) == "live";
  const int64_t next = match_is_live_->column_null(1) ? 0 : match_is_live_->column_int(1) + 1;
  const int64_t epoch = match_is_live_->column_null(2) ? 0 : match_is_live_->column_int(2);
  match_is_live_->reset();
  LogState& state = log_states_.emplace(match, LogState{live ? next : kEnded, epoch}).first->second;
  return &touch(match, state, true);
}

SqliteMatchStore::LogState& SqliteMatchStore::touch(MatchId match, LogState& state, bool fresh) {
  if (fresh) {
    batch_undo_.push_back({match, &state, std::nullopt});
  } else if (state.batch != batch_serial_) {
    batch_undo_.push_back({match, &state, state});
  }
  state.batch = batch_serial_;
  return state;
}

void SqliteMatchStore::settle_batch(bool committed) {
  for (const Undo& undo : batch_undo_) {
    if (committed ? undo.state->next == kEnded : !undo.before) {
      log_states_.erase(undo.match);
    } else if (!committed) {
      *undo.state = *undo.before;
    }
  }
  batch_undo_.clear();
}

void SqliteMatchStore::insert_action(const LoggedAction& a) {
  LogState* found = log_state(a.match);
  if (!found) throw StoreError("append to unknown match " + std::to_string(a.match));
  LogState& state = *found;
  if (a.epoch < state.epoch) throw StaleEpochError(a.match, a.epoch, state.epoch);
  if (state.next == kEnded) throw StoreError("append to ended match " + std::to_string(a.match));
  // Logs stay gapless, so a replay never skips a step.
  if (a.index != state.next) {
    throw StoreError("match " + std::to_string(a.match) + " expects step " +
                     std::to_string(state.next) + ", not " + std::to_string(a.index));
  }
  insert_action_->bind(1, a.match)
      .bind(2, int64_t{a.index})
      .bind(3, int64_t{a.seat})
      .bind(4, static_cast<int64_t>(a.action.code()))
      .bind(5, a.at_ms);
  insert_action_->run();
  ++state.next;
}

void SqliteMatchStore::end_match(const MatchEnding& ending) {
  LogState* found = log_state(ending.match);
  if (!found) throw StoreError("no live match " + std::to_string(ending.match));
  LogState& state = *found;
  if (ending.epoch < state.epoch) throw StaleEpochError(ending.match, ending.epoch, state.epoch);
  if (ending.steps >= 0 && state.next != kEnded && state.next != ending.steps) {
    throw StoreError("match " + std::to_string(ending.match) + " ends after step " +
                     std::to_string(ending.steps) + ", but its log holds " +
                     std::to_string(state.next));
  }
  end_match_->bind(1, std::string_view(to_string(ending.status)))
      .bind(2, int64_t{ending.outcome.winners})
      .bind(3, join_scores(ending.outcome.scores))
      .bind(4, ending.outcome.reason)
      .bind(5, ending.ended_ms)
      .bind(6, ending.match);
  end_match_->run();
  if (db_->changes() != 1) throw StoreError("no live match " + std::to_string(ending.match));
  state.next = kEnded;  // later appends in this batch must see it ended
}

void SqliteMatchStore::write_batch(std::span<const MatchWrite> writes,
                                   std::vector<MatchId>* created) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  const size_t created_before = created ? created->size() : 0;
  ++batch_serial_;
  try {
    for (const MatchWrite& write : writes) {
      if (const auto* match = std::get_if<NewMatch>(&write)) {
        const MatchId id = insert_match(*match);
        auto [it, fresh] = log_states_.try_emplace(id);
        touch(id, it->second, fresh) = LogState{0, match->epoch, batch_serial_};
        if (created) created->push_back(id);
      } else if (const auto* action = std::get_if<LoggedAction>(&write)) {
        insert_action(*action);
      } else {
        end_match(std::get<MatchEnding>(write));
      }
    }
    tx.commit();
  } catch (...) {
    // The statements may still hold bindings from the failed batch; its ids were rolled back.
    reset_statements();
    if (created) created->resize(created_before);
    settle_batch(false);
    throw;
  }
  settle_batch(true);
}

void SqliteMatchStore::check() {
  // A real (if empty) write: a full disk or a failing device shows only when writing.
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  db_->exec("UPDATE schema_version SET version = version");
  tx.commit();
}

void SqliteMatchStore::claim_match(MatchId match, int64_t epoch, std::string_view node) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement current(*db_, "SELECT epoch, node FROM match_owners WHERE match_id = ?");
  if (current.bind(1, match).step()) {
    const int64_t held = current.column_int(0);
    if (epoch < held || (epoch == held && current.column_text(1) != node)) {
      throw StaleEpochError(match, epoch, held);
    }
  }
  Statement claim(*db_,
                  "INSERT OR REPLACE INTO match_owners (match_id, epoch, node) VALUES (?, ?, ?)");
  claim.bind(1, match).bind(2, epoch).bind(3, node).run();
  tx.commit();
  if (auto it = log_states_.find(match); it != log_states_.end()) it->second.epoch = epoch;
}

std::optional<MatchOwner> SqliteMatchStore::match_owner(MatchId match) {
  std::lock_guard lock(mutex_);
  Statement owner(*db_, "SELECT epoch, node FROM match_owners WHERE match_id = ?");
  if (!owner.bind(1, match).step()) return std::nullopt;
  return MatchOwner{owner.column_int(0), owner.column_text(1)};
}

}  // namespace duelhall::storage
