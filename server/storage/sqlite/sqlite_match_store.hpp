// SqliteMatchStore: the MatchStore in one SQLite file in the data folder (the default backend).
//
// Durability: the file is in WAL mode with synchronous=FULL by default, so a call that writes
// returns only after its transaction is on disk (fsync of the WAL): an appended action survives a
// crash of the process and of the machine. NORMAL would survive a process crash only, since WAL
// commits are then synced at checkpoints. FULL's fsync per commit costs little because the
// server appends through GroupCommitLog, which commits many matches' actions in one transaction.
//
// Opening checks the file (file_check.hpp), runs PRAGMA quick_check (or integrity_check) and the
// schema migrations; any damage is a StoreError with a clear reason, never a silent new store.
//
// Calls are serialised on one connection. The store assumes it is the file's only writer (one
// server process per data folder), so fencing epochs are checked against its own cache.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "storage/match_store.hpp"
#include "storage/sqlite/sqlite.hpp"

namespace duelhall::storage {

struct StoreOptions {
  enum class Sync { kFull, kNormal };
  Sync sync = Sync::kFull;
  // integrity_check also verifies indexes against tables and is slower on a large file.
  bool full_integrity_check = false;
  bool create = true;  // create the file when missing
};

class SqliteMatchStore final : public MatchStore {
 public:
  // Opens or creates the store; throws StoreError with a clear reason on any damage.
  explicit SqliteMatchStore(const std::string& path, StoreOptions options = {});
  ~SqliteMatchStore() override;

  const std::string& path() const { return path_; }

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
  // The steps below run inside a transaction the caller holds, with mutex_ locked.
  MatchId insert_match(const NewMatch& match);
  // What a batch needs to know of each match it touches: its next step index (kEnded once
  // ended) and the highest epoch claimed for it.
  struct LogState {
    int64_t next = 0;
    int64_t epoch = 0;
    uint64_t batch = 0;  // the last batch that touched it (write_batch's serial)
  };
  using LogStates = std::unordered_map<MatchId, LogState>;
  static constexpr int64_t kEnded = -1;
  // The match's state, which the running batch may change in place; its state before the batch
  // is kept in batch_undo_ on first touch. Null for a match that is not stored.
  LogState* log_state(MatchId match);
  // Marks `state` as the running batch's, keeping what it was before (nothing when `fresh`, a
  // state the batch created) the first time the batch touches it.
  LogState& touch(MatchId match, LogState& state, bool fresh);
  void insert_action(const LoggedAction& action);
  void end_match(const MatchEnding& ending);
  // After the batch's transaction: forgets ended matches, or (failed) puts back what it changed.
  void settle_batch(bool committed);
  void reset_statements();
  MatchSummary read_summary(Statement& stmt);
  std::vector<engine::Step> read_steps(MatchId match, std::vector<int64_t>* times = nullptr);
  std::vector<std::string> read_names(MatchId match, std::vector<std::string>* options);

  std::string path_;
  std::mutex mutex_;
  std::unique_ptr<Database> db_;
  // The log state of live matches written to since open: saves a query per append and keeps
  // logs gapless. A batch changes it in place and puts it back if its transaction fails, so a
  // batch allocates nothing per action (a per-batch map cost a node per action).
  LogStates log_states_;
  struct Undo {
    MatchId match = 0;
    LogState* state = nullptr;       // in log_states_ (its nodes stay put until erased)
    std::optional<LogState> before;  // none: not cached before the batch
  };
  std::vector<Undo> batch_undo_;  // reused from batch to batch
  uint64_t batch_serial_ = 0;
  // Prepared once: the writes of the live server run these all the time.
  std::unique_ptr<Statement> insert_match_;
  std::unique_ptr<Statement> insert_seat_;
  std::unique_ptr<Statement> insert_action_;
  std::unique_ptr<Statement> match_is_live_;
  std::unique_ptr<Statement> end_match_;
};

}  // namespace duelhall::storage
