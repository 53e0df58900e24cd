// MatchStore: the durable record of every match, in one SQLite file in the data folder.
//
// What it keeps: each match's config (ruleset, parameters, seats, display names, seat options),
// its seed and the seed's commitment, the engine version, status, result and times; each seat's
// reconnect token as a SHA-256 hash; and each match's action log, one row per accepted step.
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
// Thread safety: every method may be called from any thread; calls are serialised on one
// connection. The seed is returned by the server-side calls (recovery needs it) but appears in a
// MatchSummary only once the match has ended: never send a live match's seed anywhere.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/state.hpp"
#include "fairness/match_record.hpp"
#include "storage/sqlite.hpp"

namespace duelhall::storage {

using MatchId = int64_t;

enum class MatchStatus { kLive, kFinished, kAbandoned };
const char* to_string(MatchStatus status);

struct StoreOptions {
  enum class Sync { kFull, kNormal };
  Sync sync = Sync::kFull;
  // integrity_check also verifies indexes against tables and is slower on a large file.
  bool full_integrity_check = false;
  bool create = true;  // create the file when missing
};

struct NewMatch {
  engine::MatchConfig config;                 // with its seed
  std::vector<std::string> names;             // display names by seat
  std::vector<std::string> reconnect_tokens;  // by seat; empty for a seat without one (a bot)
  std::string engine_version;
  int64_t created_ms = 0;  // Unix milliseconds
  // 0: the store picks the next id. The live server picks its own (it numbers matches before
  // they are stored); an id must be new.
  MatchId id = 0;
  std::string server_record;  // the server's own settings of the match, opaque to the store
};

// One accepted step of a match, as the server appends it.
struct LoggedAction {
  MatchId match = 0;
  uint32_t index = 0;  // the step's index in the match's history: 0, 1, 2, ...
  engine::Seat seat = 0;
  engine::Action action;
  int64_t at_ms = 0;
};

// How a match ended, as `finish_match`/`abandon_match` record it.
struct MatchEnding {
  MatchId match = 0;
  MatchStatus status = MatchStatus::kFinished;
  fairness::RecordedOutcome outcome;
  int64_t ended_ms = 0;
};

// One write of the live server, as GroupCommitLog queues them.
using MatchWrite = std::variant<NewMatch, LoggedAction, MatchEnding>;

struct MatchSummary {
  MatchId id = 0;
  std::string ruleset;
  int seats = 0;
  std::vector<std::string> names;
  MatchStatus status = MatchStatus::kLive;
  std::string engine_version;
  std::string commitment;
  std::optional<engine::Seed> revealed_seed;         // only once ended
  std::optional<fairness::RecordedOutcome> outcome;  // only once ended
  int64_t created_ms = 0;
  std::optional<int64_t> ended_ms;
  int64_t steps = 0;
};

// A match with everything needed to rebuild it by engine::replay.
struct StoredMatch {
  MatchSummary summary;
  engine::MatchConfig config;  // with the seed, even while live: server-side only
  std::vector<engine::Step> steps;
  std::vector<int64_t> step_ms;           // when each step was appended (Unix milliseconds)
  std::string server_record;              // as given at creation
  std::vector<std::string> token_hashes;  // by seat; empty for a seat without a token
  // Set by unfinished_matches when this match's record cannot be read (a gap in its log, bad
  // parameters): the others still recover, and the server should abandon this one with it.
  std::string problem;
};

struct TokenSeat {
  MatchId match = 0;
  engine::Seat seat = 0;
};

struct ReplayQuery {
  std::string ruleset;  // empty: any
  std::string player;   // display name, case-insensitive; empty: any
  size_t limit = 50;
  std::optional<MatchId> before;  // for paging: only matches with a smaller id
};

struct RetentionPolicy {
  std::optional<int> max_age_days;      // ended matches older than this are pruned
  std::optional<size_t> keep_finished;  // at most this many ended matches are kept (newest)
};

struct PruneReport {
  int64_t matches = 0;
  int64_t actions = 0;
};

class MatchStore {
 public:
  // Opens or creates the store; throws StoreError with a clear reason on any damage.
  explicit MatchStore(const std::string& path, StoreOptions options = {});
  ~MatchStore();

  const std::string& path() const { return path_; }

  MatchId create_match(const NewMatch& match);
  // Replaces a seat's token (a player who joined later or asked for a new one).
  void set_token(MatchId match, engine::Seat seat, std::string_view token);
  // The live match and seat a reconnect token belongs to.
  std::optional<TokenSeat> find_token(std::string_view token);
  // The highest match id ever given out (ids are never reused, even after a prune); 0 if none.
  MatchId last_match_id();
  // Counts the ids up to `up_to` as given out (durable when it returns), so last_match_id() is at
  // least `up_to` from now on: the server numbers a match when it is created, long before it is
  // stored at its start, and must not give that number out again after a restart.
  void reserve_match_ids(MatchId up_to);

  // One transaction per call; durable when it returns. Throws StoreError (for a duplicate
  // index, an unknown or ended match).
  void append(const LoggedAction& action);
  // All in one transaction: all are durable, or none is written and StoreError is thrown.
  void append_batch(std::span<const LoggedAction> actions);
  // Any writes, in order, in one transaction, with the same all-or-nothing guarantee. The id of
  // each match created is added to `created`, in order.
  void write_batch(std::span<const MatchWrite> writes, std::vector<MatchId>* created = nullptr);

  // Ends a match: records its result, reveals its seed and forgets its reconnect tokens.
  void finish_match(MatchId match, const engine::Outcome& outcome, int64_t ended_ms);
  // Ends a match that cannot go on (an engine invariant broke, it was cancelled).
  void abandon_match(MatchId match, std::string_view reason, int64_t ended_ms);

  // Recovery: every live match with its config and action log, oldest first. A match whose
  // record cannot be read is listed with its `problem` rather than failing the whole recovery.
  std::vector<StoredMatch> unfinished_matches();
  std::optional<StoredMatch> load_match(MatchId match);
  // Replays: ended matches, newest first, filtered by `query`.
  std::vector<MatchSummary> list_ended(const ReplayQuery& query);
  // Stores an ended match from an export file (its seed must be revealed).
  // `id` 0: the store picks the next id.
  MatchId import_record(const fairness::MatchRecord& record, int64_t now_ms, MatchId id = 0);

  PruneReport prune(const RetentionPolicy& policy, int64_t now_ms);

 private:
  // The steps below run inside a transaction the caller holds, with mutex_ locked.
  MatchId insert_match(const NewMatch& match);
  // The next step index of each match a batch touches; kEnded once ended in the batch.
  using NextSteps = std::unordered_map<MatchId, int64_t>;
  static constexpr int64_t kEnded = -1;
  int64_t& next_step(MatchId match, NextSteps& batch);
  void insert_action(const LoggedAction& action, NextSteps& batch);
  void end_match(const MatchEnding& ending, NextSteps& batch);
  void reset_statements();
  MatchSummary read_summary(Statement& stmt);
  std::vector<engine::Step> read_steps(MatchId match, std::vector<int64_t>* times = nullptr);
  std::vector<std::string> read_names(MatchId match, std::vector<std::string>* options);

  std::string path_;
  std::mutex mutex_;
  std::unique_ptr<Database> db_;
  // The next step index of live matches appended to since open: saves a query per append and
  // keeps logs gapless. Updated only when a transaction commits. The store assumes it is the
  // file's only writer (one server process per data folder).
  NextSteps next_steps_;
  // Prepared once: the writes of the live server run these all the time.
  std::unique_ptr<Statement> insert_match_;
  std::unique_ptr<Statement> insert_seat_;
  std::unique_ptr<Statement> insert_action_;
  std::unique_ptr<Statement> match_is_live_;
  std::unique_ptr<Statement> end_match_;
  std::unique_ptr<Statement> forget_tokens_;
};

// Hash under which a reconnect token is stored and looked up: SHA-256 of its bytes.
std::string token_hash(std::string_view token);

}  // namespace duelhall::storage
