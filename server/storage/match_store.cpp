#include "storage/match_store.hpp"

#include <map>

#include "fairness/commitment.hpp"
#include "fairness/text_escape.hpp"
#include "storage/file_check.hpp"
#include "storage/schema.hpp"

namespace duelhall::storage {
namespace {

std::string_view seed_bytes(const engine::Seed& seed) {
  return {reinterpret_cast<const char*>(seed.data()), seed.size()};
}

std::string join_scores(const std::vector<int32_t>& scores) {
  std::string out;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (i) out.push_back(',');
    out += std::to_string(scores[i]);
  }
  return out;
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

const char* to_string(MatchStatus status) {
  switch (status) {
    case MatchStatus::kLive:
      return "live";
    case MatchStatus::kFinished:
      return "finished";
    case MatchStatus::kAbandoned:
      return "abandoned";
  }
  return "?";
}

std::string token_hash(std::string_view token) {
  const fairness::Digest digest = fairness::sha256(token);
  return std::string(reinterpret_cast<const char*>(digest.data()), digest.size());
}

MatchStore::MatchStore(const std::string& path, StoreOptions options) : path_(path) {
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
  insert_action_ = std::make_unique<Statement>(
      *db_, "INSERT INTO actions (match_id, idx, seat, code, at) VALUES (?, ?, ?, ?, ?)");
  match_is_live_ = std::make_unique<Statement>(
      *db_,
      "SELECT status, (SELECT max(idx) FROM actions WHERE match_id = ?1) FROM matches "
      "WHERE id = ?1");
}

MatchStore::~MatchStore() {
  // Statements must be finalised before the connection closes.
  insert_action_.reset();
  match_is_live_.reset();
}

MatchId MatchStore::create_match(const NewMatch& match) {
  const auto& config = match.config;
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement insert(*db_,
                   "INSERT INTO matches (ruleset, seat_count, params, engine_version, commitment, "
                   "seed, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'live', ?)");
  insert.bind(1, config.ruleset)
      .bind(2, int64_t{config.seats})
      .bind(3, fairness::encode_params(config.params.values()))
      .bind(4, match.engine_version)
      .bind(5, fairness::seed_commitment(config.seed, match.engine_version))
      .bind_blob(6, seed_bytes(config.seed))
      .bind(7, match.created_ms);
  insert.run();
  const MatchId id = db_->query_int("SELECT last_insert_rowid()");
  Statement seat(*db_,
                 "INSERT INTO match_seats (match_id, seat, name, seat_option, token_hash) "
                 "VALUES (?, ?, ?, ?, ?)");
  for (int s = 0; s < config.seats; ++s) {
    const auto i = static_cast<size_t>(s);
    seat.bind(1, id).bind(2, int64_t{s});
    seat.bind(3, i < match.names.size() ? match.names[i] : std::string());
    seat.bind(4, i < config.seat_options.size() ? config.seat_options[i] : std::string());
    if (i < match.reconnect_tokens.size() && !match.reconnect_tokens[i].empty()) {
      seat.bind_blob(5, token_hash(match.reconnect_tokens[i]));
    } else {
      seat.bind_null(5);
    }
    seat.run();
  }
  tx.commit();
  return id;
}

void MatchStore::set_token(MatchId match, engine::Seat seat, std::string_view token) {
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

std::optional<TokenSeat> MatchStore::find_token(std::string_view token) {
  std::lock_guard lock(mutex_);
  Statement find(*db_,
                 "SELECT s.match_id, s.seat FROM match_seats s JOIN matches m ON m.id = s.match_id "
                 "WHERE s.token_hash = ? AND m.status = 'live'");
  find.bind_blob(1, token_hash(token));
  if (!find.step()) return std::nullopt;
  return TokenSeat{find.column_int(0), static_cast<engine::Seat>(find.column_int(1))};
}

void MatchStore::insert_actions(std::span<const LoggedAction> actions) {
  // The next index each match expects: logs stay gapless, so a replay never skips a step.
  std::map<MatchId, int64_t> next_index;
  for (const LoggedAction& a : actions) {
    auto it = next_index.find(a.match);
    if (it == next_index.end()) {
      match_is_live_->bind(1, a.match);
      if (!match_is_live_->step()) {
        match_is_live_->reset();
        throw StoreError("append to unknown match " + std::to_string(a.match));
      }
      const bool live = match_is_live_->column_text(0) == "live";
      const int64_t next = match_is_live_->column_null(1) ? 0 : match_is_live_->column_int(1) + 1;
      match_is_live_->reset();
      if (!live) throw StoreError("append to ended match " + std::to_string(a.match));
      it = next_index.emplace(a.match, next).first;
    }
    if (a.index != it->second) {
      throw StoreError("match " + std::to_string(a.match) + " expects step " +
                       std::to_string(it->second) + ", not " + std::to_string(a.index));
    }
    ++it->second;
    insert_action_->bind(1, a.match)
        .bind(2, int64_t{a.index})
        .bind(3, int64_t{a.seat})
        .bind(4, static_cast<int64_t>(a.action.code()))
        .bind(5, a.at_ms);
    insert_action_->run();
  }
}

void MatchStore::append(const LoggedAction& action) {
  append_batch(std::span<const LoggedAction>(&action, 1));
}

void MatchStore::append_batch(std::span<const LoggedAction> actions) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  try {
    insert_actions(actions);
  } catch (...) {
    // The statements may still hold bindings from the failed batch.
    insert_action_->reset();
    match_is_live_->reset();
    throw;
  }
  tx.commit();
}

void MatchStore::end_match(MatchId match, MatchStatus status,
                           const fairness::RecordedOutcome& outcome, int64_t ended_ms) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement update(*db_,
                   "UPDATE matches SET status = ?, winners = ?, scores = ?, result = ?, "
                   "ended_at = ? WHERE id = ? AND status = 'live'");
  update.bind(1, std::string_view(to_string(status)))
      .bind(2, int64_t{outcome.winners})
      .bind(3, join_scores(outcome.scores))
      .bind(4, outcome.reason)
      .bind(5, ended_ms)
      .bind(6, match);
  update.run();
  if (db_->changes() != 1) throw StoreError("no live match " + std::to_string(match));
  // A token of an ended match opens nothing, so it need not be kept even hashed.
  Statement forget(*db_, "UPDATE match_seats SET token_hash = NULL WHERE match_id = ?");
  forget.bind(1, match).run();
  tx.commit();
}

void MatchStore::finish_match(MatchId match, const engine::Outcome& outcome, int64_t ended_ms) {
  end_match(match, MatchStatus::kFinished, fairness::record_outcome(outcome), ended_ms);
}

void MatchStore::abandon_match(MatchId match, std::string_view reason, int64_t ended_ms) {
  end_match(match, MatchStatus::kAbandoned, {0, {}, std::string(reason)}, ended_ms);
}

}  // namespace duelhall::storage
