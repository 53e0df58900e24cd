// PostgresMatchStore's reads (recovery, replay listings, loading a match on any node), import
// and retention.
#include "fairness/text_escape.hpp"
#include "storage/match_rows.hpp"
#include "storage/postgres/postgres_match_store.hpp"

namespace duelhall::storage {
namespace {

// PostgreSQL's columns after the shared ones: the server's record of the match.
const std::string kColumns = std::string(kSummaryColumns) + ", m.server_record";

}  // namespace

MatchSummary PostgresMatchStore::read_summary(const PgResult& rows, int r) {
  return summary_from_row(PgRow{rows, r});
}

std::optional<StoredMatch> PostgresMatchStore::load_locked(MatchId match) {
  const PgResult row =
      db_->query("SELECT " + kColumns + " FROM matches m WHERE m.id = $1", PgParams().add(match));
  if (row.rows() == 0) return std::nullopt;
  StoredMatch stored;
  stored.summary = read_summary(row, 0);
  stored.config.ruleset = stored.summary.ruleset;
  stored.config.seats = stored.summary.seats;
  stored.config.seed = seed_from_bytes(row.bytes(0, 6));
  auto params = fairness::decode_params(row.text(0, 13));
  if (!params) throw StoreError("match " + std::to_string(match) + " has unreadable parameters");
  stored.config.params = fairness::params_as_written(*params);
  if (!row.null(0, 14)) stored.server_record = row.bytes(0, 14);
  const PgResult seats = db_->query(
      "SELECT name, seat_option, token_hash FROM match_seats WHERE match_id = $1 ORDER BY seat",
      PgParams().add(match));
  for (int r = 0; r < seats.rows(); ++r) {
    stored.summary.names.push_back(seats.text(r, 0));
    stored.config.seat_options.push_back(seats.text(r, 1));
    stored.token_hashes.push_back(seats.null(r, 2) ? std::string() : seats.bytes(r, 2));
  }
  const PgResult actions =
      db_->query("SELECT idx, seat, code, at FROM actions WHERE match_id = $1 ORDER BY idx",
                 PgParams().add(match));
  for (int r = 0; r < actions.rows(); ++r) {
    if (actions.integer(r, 0) != r) {
      throw StoreError("the action log of match " + std::to_string(match) + " has a gap at step " +
                       std::to_string(r));
    }
    stored.steps.push_back(
        {static_cast<engine::Seat>(actions.integer(r, 1)),
         engine::Action::from_code(static_cast<uint64_t>(actions.integer(r, 2)))});
    stored.step_ms.push_back(actions.integer(r, 3));
  }
  return stored;
}

std::optional<StoredMatch> PostgresMatchStore::load_match(MatchId match) {
  std::lock_guard lock(mutex_);
  // One snapshot for the match's row, seats and log, so a log being appended to by its owner
  // is read as of one commit.
  PgTransaction tx(*db_);
  db_->exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
  auto stored = load_locked(match);
  tx.commit();
  return stored;
}

std::vector<StoredMatch> PostgresMatchStore::unfinished_matches() {
  std::vector<MatchId> ids;
  {
    std::lock_guard lock(mutex_);
    db_->ensure_open();
    const PgResult live = db_->query("SELECT id FROM matches WHERE status = 'live' ORDER BY id");
    for (int r = 0; r < live.rows(); ++r) ids.push_back(live.integer(r, 0));
  }
  return load_for_recovery(ids);
}

std::vector<StoredMatch> PostgresMatchStore::recently_ended_matches(int64_t since_ms) {
  std::vector<MatchId> ids;
  {
    std::lock_guard lock(mutex_);
    db_->ensure_open();
    const PgResult ended = db_->query(
        "SELECT id FROM matches WHERE status IN ('finished', 'abandoned') AND "
        "ended_at >= $1 ORDER BY id",
        PgParams().add(since_ms));
    for (int r = 0; r < ended.rows(); ++r) ids.push_back(ended.integer(r, 0));
  }
  return load_for_recovery(ids);
}

int64_t PostgresMatchStore::forget_ended_tokens(int64_t before_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return db_
      ->query(
          "UPDATE match_seats SET token_hash = NULL WHERE token_hash IS NOT NULL AND "
          "EXISTS (SELECT 1 FROM matches m WHERE m.id = match_seats.match_id AND "
          "m.status <> 'live' AND m.ended_at < $1)",
          PgParams().add(before_ms))
      .affected();
}

std::vector<MatchSummary> PostgresMatchStore::list_ended(const ReplayQuery& query) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  PgParams params;
  params.add(query.ruleset).add(query.player);
  if (query.before) {
    params.add(*query.before);
  } else {
    params.add_null();
  }
  params.add(static_cast<int64_t>(query.limit));
  const PgResult rows = db_->query(
      "SELECT " + kColumns +
          " FROM matches m WHERE m.status != 'live' AND ($1 = '' OR m.ruleset = $1) "
          "AND ($2 = '' OR EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id "
          "AND lower(s.name) = lower($2))) AND ($3::bigint IS NULL OR m.id < $3::bigint) "
          "ORDER BY m.ended_at DESC, m.id DESC LIMIT $4",
      params);
  std::vector<MatchSummary> out;
  for (int r = 0; r < rows.rows(); ++r) {
    MatchSummary summary = read_summary(rows, r);
    const PgResult names =
        db_->query("SELECT name FROM match_seats WHERE match_id = $1 ORDER BY seat",
                   PgParams().add(summary.id));
    for (int n = 0; n < names.rows(); ++n) summary.names.push_back(names.text(n, 0));
    out.push_back(std::move(summary));
  }
  return out;
}

MatchId PostgresMatchStore::import_record(const fairness::MatchRecord& record, int64_t now_ms,
                                          MatchId id) {
  if (!record.seed_revealed) throw StoreError("cannot import a record whose seed is not revealed");
  const auto& config = record.config;
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  id = next_match_id(id);
  const fairness::RecordedOutcome outcome =
      record.outcome.value_or(fairness::RecordedOutcome{0, {}, "imported without a result"});
  db_->query(
      "INSERT INTO matches (id, ruleset, seat_count, params, engine_version, commitment, seed, "
      "status, winners, scores, result, created_at, ended_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
      PgParams()
          .add(id)
          .add(config.ruleset)
          .add(int64_t{config.seats})
          .add(fairness::encode_params(config.params.values()))
          .add(record.engine_version)
          .add(record.commitment)
          .add_bytes(std::string_view(reinterpret_cast<const char*>(config.seed.data()), 32))
          .add(std::string_view(record.outcome ? "finished" : "abandoned"))
          .add(int64_t{outcome.winners})
          .add(join_scores(outcome.scores))
          .add(outcome.reason)
          .add(now_ms)
          .add(now_ms));
  for (int s = 0; s < config.seats; ++s) {
    const auto i = static_cast<size_t>(s);
    db_->query(
        "INSERT INTO match_seats (match_id, seat, name, seat_option) VALUES ($1, $2, $3, $4)",
        PgParams()
            .add(id)
            .add(int64_t{s})
            .add(i < record.names.size() ? record.names[i] : std::string())
            .add(i < config.seat_options.size() ? config.seat_options[i] : std::string()));
  }
  for (size_t i = 0; i < record.steps.size(); ++i) {
    db_->query("INSERT INTO actions (match_id, idx, seat, code, at) VALUES ($1, $2, $3, $4, $5)",
               PgParams()
                   .add(id)
                   .add(static_cast<int64_t>(i))
                   .add(int64_t{record.steps[i].seat})
                   .add(static_cast<int64_t>(record.steps[i].action.code()))
                   .add(now_ms));
  }
  tx.commit();
  return id;
}

PruneReport PostgresMatchStore::prune(const RetentionPolicy& policy, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  PgParams params;
  if (policy.max_age_days) {
    params.add(now_ms - int64_t{*policy.max_age_days} * 24 * 60 * 60 * 1000);
  } else {
    params.add_null();
  }
  if (policy.keep_finished) {
    params.add(static_cast<int64_t>(*policy.keep_finished));
  } else {
    params.add_null();
  }
  // Live matches are never pruned, whatever their age.
  const PgResult victims = db_->query(
      "SELECT id, (SELECT count(*) FROM actions a WHERE a.match_id = m.id) FROM matches m "
      "WHERE status != 'live' AND (($1::bigint IS NOT NULL AND ended_at < $1::bigint) OR "
      "($2::bigint IS NOT NULL AND id NOT IN (SELECT id FROM matches WHERE status != 'live' "
      "ORDER BY ended_at DESC, id DESC LIMIT $2::bigint)))",
      params);
  PruneReport report;
  std::vector<MatchId> ids;
  for (int r = 0; r < victims.rows(); ++r) {
    ids.push_back(victims.integer(r, 0));
    report.actions += victims.integer(r, 1);
  }
  for (MatchId id : ids) {
    db_->query("DELETE FROM actions WHERE match_id = $1", PgParams().add(id));
    db_->query("DELETE FROM match_owners WHERE match_id = $1", PgParams().add(id));
    db_->query("DELETE FROM matches WHERE id = $1", PgParams().add(id));  // its seats cascade
  }
  report.matches = static_cast<int64_t>(ids.size());
  tx.commit();
  return report;
}

}  // namespace duelhall::storage
