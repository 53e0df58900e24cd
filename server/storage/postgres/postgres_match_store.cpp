// PostgresMatchStore's writes: matches, action logs, endings, claims and tokens.
#include "storage/postgres/postgres_match_store.hpp"

#include <algorithm>

#include "fairness/commitment.hpp"
#include "fairness/text_escape.hpp"
#include "storage/postgres/pg_schema.hpp"

namespace duelhall::storage {
namespace {

std::string_view seed_bytes(const engine::Seed& seed) {
  return {reinterpret_cast<const char*>(seed.data()), seed.size()};
}

// A PostgreSQL array literal of integers: {1,2,3}.
template <typename T>
std::string int_array(const std::vector<T>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text.push_back(',');
    text += std::to_string(values[i]);
  }
  text.push_back('}');
  return text;
}

MatchId write_match(const MatchWrite& write) {
  if (const auto* action = std::get_if<LoggedAction>(&write)) return action->match;
  if (const auto* ending = std::get_if<MatchEnding>(&write)) return ending->match;
  return 0;
}

}  // namespace

PostgresMatchStore::PostgresMatchStore(const std::string& url) {
  try {
    db_ = std::make_unique<PgConnection>(url);
    pg_migrate(*db_);
  } catch (const StoreError& e) {
    throw StoreError(std::string("cannot open the PostgreSQL match store: ") + e.what());
  }
}

PostgresMatchStore::~PostgresMatchStore() = default;

PostgresMatchStore::LogStates PostgresMatchStore::lock_and_read(
    std::span<const MatchWrite> writes) {
  std::vector<MatchId> ids;
  for (const MatchWrite& write : writes) {
    if (const MatchId id = write_match(write)) ids.push_back(id);
  }
  LogStates states;
  if (ids.empty()) return states;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const std::string array = int_array(ids);
  // The lock first, in id order (no deadlock between two batches), then the read in a statement
  // of its own: under READ COMMITTED it sees every claim that committed before the lock was had.
  db_->query("SELECT id FROM matches WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE",
             PgParams().add(array));
  const PgResult rows = db_->query(
      "SELECT m.id, m.status, (SELECT max(idx) FROM actions a WHERE a.match_id = m.id), "
      "coalesce(o.epoch, 0) FROM matches m LEFT JOIN match_owners o ON o.match_id = m.id "
      "WHERE m.id = ANY($1::bigint[])",
      PgParams().add(array));
  for (int r = 0; r < rows.rows(); ++r) {
    const int64_t next = rows.null(r, 2) ? 0 : rows.integer(r, 2) + 1;
    states[rows.integer(r, 0)] = {rows.text(r, 1) == "live" ? next : kEnded, rows.integer(r, 3)};
  }
  return states;
}

MatchId PostgresMatchStore::next_match_id(MatchId wanted) {
  const PgResult last = db_->query(
      "UPDATE match_ids SET last = CASE WHEN $1::bigint = 0 THEN last + 1 "
      "ELSE greatest(last, $1::bigint) END RETURNING last",
      PgParams().add(wanted));
  return wanted != 0 ? wanted : last.integer(0, 0);
}

MatchId PostgresMatchStore::insert_match(const NewMatch& match) {
  const auto& config = match.config;
  const MatchId id = next_match_id(match.id);
  db_->query(
      "INSERT INTO matches (id, ruleset, seat_count, params, engine_version, commitment, seed, "
      "status, created_at, server_record) VALUES ($1, $2, $3, $4, $5, $6, $7, 'live', $8, $9)",
      PgParams()
          .add(id)
          .add(config.ruleset)
          .add(int64_t{config.seats})
          .add(fairness::encode_params(config.params.values()))
          .add(match.engine_version)
          .add(fairness::seed_commitment(config.seed, match.engine_version))
          .add_bytes(seed_bytes(config.seed))
          .add(match.created_ms)
          .add_bytes(match.server_record));
  for (int s = 0; s < config.seats; ++s) {
    const auto i = static_cast<size_t>(s);
    PgParams seat;
    seat.add(id).add(int64_t{s});
    seat.add(i < match.names.size() ? match.names[i] : std::string());
    seat.add(i < config.seat_options.size() ? config.seat_options[i] : std::string());
    if (i < match.reconnect_tokens.size() && !match.reconnect_tokens[i].empty()) {
      seat.add_bytes(token_hash(match.reconnect_tokens[i]));
    } else {
      seat.add_null();
    }
    db_->query(
        "INSERT INTO match_seats (match_id, seat, name, seat_option, token_hash) "
        "VALUES ($1, $2, $3, $4, $5)",
        seat);
  }
  if (match.epoch != 0) {
    db_->query("INSERT INTO match_owners (match_id, epoch, node) VALUES ($1, $2, $3)",
               PgParams().add(id).add(match.epoch).add(match.node));
  }
  return id;
}

void PostgresMatchStore::end_match(const MatchEnding& ending, LogStates& batch) {
  auto found = batch.find(ending.match);
  if (found == batch.end()) throw StoreError("no live match " + std::to_string(ending.match));
  LogState& state = found->second;
  if (ending.epoch < state.epoch) throw StaleEpochError(ending.match, ending.epoch, state.epoch);
  if (ending.steps >= 0 && state.next != kEnded && state.next != ending.steps) {
    throw StoreError("match " + std::to_string(ending.match) + " ends after step " +
                     std::to_string(ending.steps) + ", but its log holds " +
                     std::to_string(state.next));
  }
  const PgResult ended = db_->query(
      "UPDATE matches SET status = $1, winners = $2, scores = $3, result = $4, ended_at = $5 "
      "WHERE id = $6 AND status = 'live'",
      PgParams()
          .add(std::string_view(to_string(ending.status)))
          .add(int64_t{ending.outcome.winners})
          .add(join_scores(ending.outcome.scores))
          .add(ending.outcome.reason)
          .add(ending.ended_ms)
          .add(ending.match));
  if (ended.affected() != 1) throw StoreError("no live match " + std::to_string(ending.match));
  state.next = kEnded;
}

void PostgresMatchStore::write_batch(std::span<const MatchWrite> writes,
                                     std::vector<MatchId>* created) {
  std::lock_guard lock(mutex_);
  const size_t created_before = created ? created->size() : 0;
  try {
    PgTransaction tx(*db_);
    LogStates batch = lock_and_read(writes);
    // The actions go in with one statement at the end: their checks are made here, in order.
    std::vector<int64_t> matches, indexes, seats, codes, times;
    for (const MatchWrite& write : writes) {
      if (const auto* match = std::get_if<NewMatch>(&write)) {
        const MatchId id = insert_match(*match);
        batch[id] = LogState{0, match->epoch};
        if (created) created->push_back(id);
      } else if (const auto* a = std::get_if<LoggedAction>(&write)) {
        auto found = batch.find(a->match);
        if (found == batch.end()) {
          throw StoreError("append to unknown match " + std::to_string(a->match));
        }
        LogState& state = found->second;
        if (a->epoch < state.epoch) throw StaleEpochError(a->match, a->epoch, state.epoch);
        if (state.next == kEnded) {
          throw StoreError("append to ended match " + std::to_string(a->match));
        }
        if (a->index != state.next) {
          throw StoreError("match " + std::to_string(a->match) + " expects step " +
                           std::to_string(state.next) + ", not " + std::to_string(a->index));
        }
        ++state.next;
        matches.push_back(a->match);
        indexes.push_back(a->index);
        seats.push_back(a->seat);
        codes.push_back(static_cast<int64_t>(a->action.code()));
        times.push_back(a->at_ms);
      } else {
        end_match(std::get<MatchEnding>(write), batch);
      }
    }
    if (!matches.empty()) {
      db_->query(
          "INSERT INTO actions (match_id, idx, seat, code, at) SELECT * FROM "
          "unnest($1::bigint[], $2::bigint[], $3::int[], $4::bigint[], $5::bigint[])",
          PgParams()
              .add(int_array(matches))
              .add(int_array(indexes))
              .add(int_array(seats))
              .add(int_array(codes))
              .add(int_array(times)));
    }
    tx.commit();
  } catch (...) {
    if (created) created->resize(created_before);
    throw;
  }
}

void PostgresMatchStore::check() {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->exec("SELECT 1");
}

void PostgresMatchStore::claim_match(MatchId match, int64_t epoch, std::string_view node) {
  std::lock_guard lock(mutex_);
  PgTransaction tx(*db_);
  // The update lock on the match's row waits for every batch that holds its share lock.
  db_->query("SELECT id FROM matches WHERE id = $1 FOR UPDATE", PgParams().add(match));
  const PgResult claimed = db_->query(
      "INSERT INTO match_owners (match_id, epoch, node) VALUES ($1, $2, $3) "
      "ON CONFLICT (match_id) DO UPDATE SET epoch = excluded.epoch, node = excluded.node "
      "WHERE match_owners.epoch < excluded.epoch OR "
      "(match_owners.epoch = excluded.epoch AND match_owners.node = excluded.node)",
      PgParams().add(match).add(epoch).add(node));
  if (claimed.affected() != 1) {
    const PgResult held =
        db_->query("SELECT epoch FROM match_owners WHERE match_id = $1", PgParams().add(match));
    throw StaleEpochError(match, epoch, held.rows() ? held.integer(0, 0) : 0);
  }
  tx.commit();
}

std::optional<MatchOwner> PostgresMatchStore::match_owner(MatchId match) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult owner =
      db_->query("SELECT epoch, node FROM match_owners WHERE match_id = $1", PgParams().add(match));
  if (owner.rows() == 0) return std::nullopt;
  return MatchOwner{owner.integer(0, 0), owner.text(0, 1)};
}

void PostgresMatchStore::set_token(MatchId match, engine::Seat seat, std::string_view token) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult updated = db_->query(
      "UPDATE match_seats SET token_hash = $1 WHERE match_id = $2 AND seat = $3 AND "
      "(SELECT status FROM matches WHERE id = match_id) = 'live'",
      PgParams().add_bytes(token_hash(token)).add(match).add(int64_t{seat}));
  if (updated.affected() != 1) {
    throw StoreError("no seat " + std::to_string(seat) + " in live match " + std::to_string(match));
  }
}

std::optional<TokenSeat> PostgresMatchStore::find_token(std::string_view token) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult found = db_->query(
      "SELECT s.match_id, s.seat FROM match_seats s JOIN matches m ON m.id = s.match_id "
      "WHERE s.token_hash = $1 AND m.status = 'live' LIMIT 1",
      PgParams().add_bytes(token_hash(token)));
  if (found.rows() == 0) return std::nullopt;
  return TokenSeat{found.integer(0, 0), static_cast<engine::Seat>(found.integer(0, 1))};
}

MatchId PostgresMatchStore::last_match_id() {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  return db_->query("SELECT last FROM match_ids").integer(0, 0);
}

void PostgresMatchStore::reserve_match_ids(MatchId up_to) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  db_->query("UPDATE match_ids SET last = greatest(last, $1::bigint)", PgParams().add(up_to));
}

}  // namespace duelhall::storage
