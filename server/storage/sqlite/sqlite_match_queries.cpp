// SqliteMatchStore's reads (recovery, replay listings), import and retention.
#include "fairness/text_escape.hpp"
#include "storage/match_rows.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"

namespace duelhall::storage {
namespace {}  // namespace

MatchSummary SqliteMatchStore::read_summary(Statement& stmt) {
  MatchSummary s = summary_from_row(StatementRow{stmt});
  s.names = read_names(s.id, nullptr);
  return s;
}

std::vector<std::string> SqliteMatchStore::read_names(MatchId match,
                                                      std::vector<std::string>* options) {
  Statement seats(*db_,
                  "SELECT name, seat_option FROM match_seats WHERE match_id = ? ORDER BY seat");
  seats.bind(1, match);
  std::vector<std::string> names;
  while (seats.step()) {
    names.push_back(seats.column_text(0));
    if (options) options->push_back(seats.column_text(1));
  }
  return names;
}

std::vector<engine::Step> SqliteMatchStore::read_steps(MatchId match, std::vector<int64_t>* times) {
  Statement actions(*db_,
                    "SELECT idx, seat, code, at FROM actions WHERE match_id = ? ORDER BY idx");
  actions.bind(1, match);
  std::vector<engine::Step> steps;
  while (actions.step()) {
    if (actions.column_int(0) != static_cast<int64_t>(steps.size())) {
      throw StoreError("the action log of match " + std::to_string(match) + " has a gap at step " +
                       std::to_string(steps.size()));
    }
    steps.push_back({static_cast<engine::Seat>(actions.column_int(1)),
                     engine::Action::from_code(static_cast<uint64_t>(actions.column_int(2)))});
    if (times) times->push_back(actions.column_int(3));
  }
  return steps;
}

std::optional<StoredMatch> SqliteMatchStore::load_match(MatchId match) {
  std::lock_guard lock(mutex_);
  Statement stmt(*db_, "SELECT " + std::string(kSummaryColumns) + " FROM matches m WHERE id = ?");
  stmt.bind(1, match);
  if (!stmt.step()) return std::nullopt;
  StoredMatch stored;
  stored.summary = read_summary(stmt);
  stored.config.ruleset = stored.summary.ruleset;
  stored.config.seats = stored.summary.seats;
  stored.config.seed = seed_from_bytes(stmt.column_blob(6));
  auto params = fairness::decode_params(stmt.column_text(13));
  if (!params) throw StoreError("match " + std::to_string(match) + " has unreadable parameters");
  stored.config.params = fairness::params_as_written(*params);
  read_names(match, &stored.config.seat_options);
  stored.steps = read_steps(match, &stored.step_ms);
  Statement extra(*db_, "SELECT server_record FROM matches WHERE id = ?");
  extra.bind(1, match);
  if (extra.step()) stored.server_record = extra.column_blob(0);
  Statement tokens(*db_, "SELECT token_hash FROM match_seats WHERE match_id = ? ORDER BY seat");
  tokens.bind(1, match);
  while (tokens.step()) stored.token_hashes.push_back(tokens.column_blob(0));
  return stored;
}

std::vector<StoredMatch> SqliteMatchStore::unfinished_matches() {
  std::vector<MatchId> ids;
  {
    std::lock_guard lock(mutex_);
    Statement live(*db_, "SELECT id FROM matches WHERE status = 'live' ORDER BY id");
    while (live.step()) ids.push_back(live.column_int(0));
  }
  return load_for_recovery(ids);
}

std::vector<StoredMatch> SqliteMatchStore::recently_ended_matches(int64_t since_ms) {
  std::vector<MatchId> ids;
  {
    std::lock_guard lock(mutex_);
    Statement ended(*db_,
                    "SELECT id FROM matches WHERE status IN ('finished', 'abandoned') AND "
                    "ended_at >= ? ORDER BY id");
    ended.bind(1, since_ms);
    while (ended.step()) ids.push_back(ended.column_int(0));
  }
  return load_for_recovery(ids);
}

int64_t SqliteMatchStore::forget_ended_tokens(int64_t before_ms) {
  std::lock_guard lock(mutex_);
  // Only the seats that still hold a hash are looked at (the partial index on token_hash), each
  // match by its key: never a scan of every stored match.
  Statement forget(*db_,
                   "UPDATE match_seats SET token_hash = NULL WHERE token_hash IS NOT NULL AND "
                   "EXISTS (SELECT 1 FROM matches m WHERE m.id = match_seats.match_id AND "
                   "m.status != 'live' AND m.ended_at < ?)");
  forget.bind(1, before_ms).run();
  return db_->changes();
}

std::vector<MatchSummary> SqliteMatchStore::list_ended(const ReplayQuery& query) {
  std::lock_guard lock(mutex_);
  std::string sql = "SELECT " + std::string(kSummaryColumns) +
                    " FROM matches m WHERE m.status != 'live' AND (?1 = '' OR m.ruleset = ?1) "
                    "AND (?2 = '' OR EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id "
                    "AND s.name = ?2 COLLATE NOCASE)) AND (?3 IS NULL OR m.id < ?3) "
                    "ORDER BY m.ended_at DESC, m.id DESC LIMIT ?4";
  Statement stmt(*db_, sql);
  stmt.bind(1, query.ruleset).bind(2, query.player);
  if (query.before) {
    stmt.bind(3, *query.before);
  } else {
    stmt.bind_null(3);
  }
  stmt.bind(4, static_cast<int64_t>(query.limit));
  std::vector<MatchSummary> out;
  while (stmt.step()) out.push_back(read_summary(stmt));
  return out;
}

MatchId SqliteMatchStore::import_record(const fairness::MatchRecord& record, int64_t now_ms,
                                        MatchId id) {
  if (!record.seed_revealed) throw StoreError("cannot import a record whose seed is not revealed");
  const auto& config = record.config;
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  Statement insert(*db_,
                   "INSERT INTO matches (ruleset, seat_count, params, engine_version, commitment, "
                   "seed, status, winners, scores, result, created_at, ended_at, id) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const fairness::RecordedOutcome outcome =
      record.outcome.value_or(fairness::RecordedOutcome{0, {}, "imported without a result"});
  const std::string scores = join_scores(outcome.scores);
  insert.bind(1, config.ruleset)
      .bind(2, int64_t{config.seats})
      .bind(3, fairness::encode_params(config.params.values()))
      .bind(4, record.engine_version)
      .bind(5, record.commitment)
      .bind_blob(6, std::string_view(reinterpret_cast<const char*>(config.seed.data()), 32))
      .bind(7, std::string_view(record.outcome ? "finished" : "abandoned"))
      .bind(8, int64_t{outcome.winners})
      .bind(9, scores)
      .bind(10, outcome.reason)
      .bind(11, now_ms)
      .bind(12, now_ms);
  if (id != 0) {
    insert.bind(13, id);
  } else {
    insert.bind_null(13);
  }
  insert.run();
  id = db_->query_int("SELECT last_insert_rowid()");
  Statement seat(*db_,
                 "INSERT INTO match_seats (match_id, seat, name, seat_option) VALUES (?, ?, ?, ?)");
  for (int s = 0; s < config.seats; ++s) {
    const auto i = static_cast<size_t>(s);
    seat.bind(1, id).bind(2, int64_t{s});
    seat.bind(3, i < record.names.size() ? record.names[i] : std::string());
    seat.bind(4, i < config.seat_options.size() ? config.seat_options[i] : std::string());
    seat.run();
  }
  for (size_t i = 0; i < record.steps.size(); ++i) {
    insert_action_->bind(1, id)
        .bind(2, static_cast<int64_t>(i))
        .bind(3, int64_t{record.steps[i].seat})
        .bind(4, static_cast<int64_t>(record.steps[i].action.code()))
        .bind(5, now_ms);
    insert_action_->run();
  }
  tx.commit();
  return id;
}

PruneReport SqliteMatchStore::prune(const RetentionPolicy& policy, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Transaction tx(*db_);
  // Live matches are never pruned, whatever their age.
  Statement victims(*db_,
                    "SELECT id, (SELECT count(*) FROM actions a WHERE a.match_id = m.id) "
                    "FROM matches m WHERE status != 'live' AND ((?1 IS NOT NULL AND ended_at < ?1) "
                    "OR (?2 IS NOT NULL AND id NOT IN (SELECT id FROM matches WHERE status != "
                    "'live' ORDER BY ended_at DESC, id DESC LIMIT ?2)))");
  if (policy.max_age_days) {
    victims.bind(1, now_ms - int64_t{*policy.max_age_days} * 24 * 60 * 60 * 1000);
  } else {
    victims.bind_null(1);
  }
  if (policy.keep_finished) {
    victims.bind(2, static_cast<int64_t>(*policy.keep_finished));
  } else {
    victims.bind_null(2);
  }
  PruneReport report;
  std::vector<MatchId> ids;
  while (victims.step()) {
    ids.push_back(victims.column_int(0));
    report.actions += victims.column_int(1);
  }
  Statement remove(*db_, "DELETE FROM matches WHERE id = ?");  // its seats cascade
  Statement remove_actions(*db_, "DELETE FROM actions WHERE match_id = ?");
  for (MatchId id : ids) {
    remove_actions.bind(1, id).run();
    remove.bind(1, id).run();
  }
  report.matches = static_cast<int64_t>(ids.size());
  tx.commit();
  return report;
}

}  // namespace duelhall::storage
