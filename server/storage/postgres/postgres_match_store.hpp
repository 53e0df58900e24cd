// PostgresMatchStore: the MatchStore in a PostgreSQL database that several nodes share.
//
// Durability: a write returns once PostgreSQL has committed it (synchronous_commit on, the
// server's default: the commit is flushed to its WAL). The group-commit log batches many
// matches' writes into each transaction, as with SQLite.
//
// Unlike SqliteMatchStore it keeps no cache of the logs: another node may have written to a
// match since (after taking it over), so every batch reads each match's next index and owner
// epoch inside its transaction. Fencing: a batch first takes a share lock on the rows of the
// matches it writes to, and claim_match an update lock on the same row, so a claim waits for
// the batches in flight and every batch after it reads the new epoch: the check and the write
// are atomic with respect to claims.
//
// Calls are serialised on one connection per store, which is reopened after a lost connection.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "storage/match_store.hpp"
#include "storage/postgres/pg.hpp"

namespace duelhall::storage {

class PostgresMatchStore final : public MatchStore {
 public:
  // Connects and brings the schema up to date; throws StoreError with a clear reason (unreachable
  // server, refused login, unknown database, not a Duelhall database, a newer schema).
  explicit PostgresMatchStore(const std::string& url);
  ~PostgresMatchStore() override;

  void write_batch(std::span<const MatchWrite> writes,
                   std::vector<MatchId>* created = nullptr) override;
  void check() override;
  void claim_match(MatchId match, int64_t epoch, std::string_view node) override;
  std::optional<MatchOwner> match_owner(MatchId match) override;
  void set_token(MatchId match, engine::Seat seat, std::string_view token) override;
  std::optional<TokenSeat> find_token(std::string_view token) override;
  MatchId last_match_id() override;
  void reserve_match_ids(MatchId up_to) override;
  std::vector<StoredMatch> unfinished_matches() override;
  std::vector<StoredMatch> recently_ended_matches(int64_t since_ms) override;
  int64_t forget_ended_tokens(int64_t before_ms) override;
  std::optional<StoredMatch> load_match(MatchId match) override;
  std::vector<MatchSummary> list_ended(const ReplayQuery& query) override;
  MatchId import_record(const fairness::MatchRecord& record, int64_t now_ms,
                        MatchId id = 0) override;
  PruneReport prune(const RetentionPolicy& policy, int64_t now_ms) override;

 private:
  struct LogState {
    int64_t next = 0;  // kEnded once ended
    int64_t epoch = 0;
  };
  using LogStates = std::unordered_map<MatchId, LogState>;
  static constexpr int64_t kEnded = -1;

  // These run inside the caller's transaction, with mutex_ locked.
  LogStates lock_and_read(std::span<const MatchWrite> writes);
  // The id a new match gets: `wanted`, or the next one when 0; ids are never given out twice.
  MatchId next_match_id(MatchId wanted);
  MatchId insert_match(const NewMatch& match);
  void end_match(const MatchEnding& ending, LogStates& batch);
  MatchSummary read_summary(const PgResult& rows, int row);
  std::optional<StoredMatch> load_locked(MatchId match);

  std::mutex mutex_;
  std::unique_ptr<PgConnection> db_;
};

}  // namespace duelhall::storage
