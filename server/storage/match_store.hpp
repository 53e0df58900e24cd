// MatchStore: the durable record of every match, behind one interface with two backends:
// SqliteMatchStore (one file in the data folder, the default) and PostgresMatchStore
// (storage/postgres/, for a cluster of nodes sharing one database).
//
// What it keeps: each match's config (ruleset, parameters, seats, display names, seat options),
// its seed and the seed's commitment, the engine version, status, result and times; each seat's
// reconnect token as a SHA-256 hash; each match's action log, one row per accepted step; and
// which node owns each match at which fencing epoch (claim_match).
//
// Contract for every backend:
//  - every method may be called from any thread;
//  - a write returns only once it is durable, and a batch is all or nothing;
//  - logs are gapless: an append must carry the match's next step index;
//  - fencing: an append or an ending whose epoch is lower than the highest epoch claimed for its
//    match is refused with StaleEpochError, and the check and the write happen in one
//    transaction, so an old owner cannot write once a new owner's claim has returned;
//  - a backend that cannot be reached, or holds something that is not a Duelhall store, throws
//    StoreError with a clear reason when it is opened, never a silent new store.
//
// The seed is returned by the server-side calls (recovery needs it) but appears in a
// MatchSummary only once the match has ended: never send a live match's seed anywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/state.hpp"
#include "fairness/match_record.hpp"
#include "storage/store_error.hpp"

namespace duelhall::storage {

using MatchId = int64_t;

enum class MatchStatus { kLive, kFinished, kAbandoned };
const char* to_string(MatchStatus status);

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
  // Non-zero: the creation also claims the match for `node` at this epoch (claim_match).
  int64_t epoch = 0;
  std::string node;
};

// One accepted step of a match, as the server appends it.
struct LoggedAction {
  MatchId match = 0;
  uint32_t index = 0;  // the step's index in the match's history: 0, 1, 2, ...
  engine::Seat seat = 0;
  engine::Action action;
  int64_t at_ms = 0;
  int64_t epoch = 0;  // the writer's fencing epoch for the match; 0 for a match never claimed
};

// How a match ended, as `finish_match`/`abandon_match` record it.
struct MatchEnding {
  MatchId match = 0;
  MatchStatus status = MatchStatus::kFinished;
  fairness::RecordedOutcome outcome;
  int64_t ended_ms = 0;
  int64_t epoch = 0;  // as LoggedAction::epoch
  // The number of steps the match ended after: the store refuses the end when its log holds
  // another number (a step before it was not stored). -1: not checked.
  int64_t steps = -1;
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

// Who owns a match, as the highest claim recorded for it.
struct MatchOwner {
  int64_t epoch = 0;
  std::string node;
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
  virtual ~MatchStore() = default;

  // Any writes, in order, in one transaction: all are durable when it returns, or none is
  // written and StoreError is thrown (StaleEpochError for a fenced write; also for a duplicate
  // or out-of-order index, an unknown or ended match). The id of each match created is added to
  // `created`, in order.
  virtual void write_batch(std::span<const MatchWrite> writes,
                           std::vector<MatchId>* created = nullptr) = 0;
  // Throws StoreUnavailableError when the store cannot take a write now (for /readyz and for the
  // matches waiting for their store). Cheap: one round trip, or one small write.
  virtual void check() {}

  // Records `node` as the owner of `match` at `epoch`, which must be higher than any epoch
  // claimed for it before (or equal, by the same node: claiming again is harmless). From the
  // moment it returns, writes with a lower epoch are refused. A lower epoch, or the same one by
  // another node, throws StaleEpochError. The match need not be stored yet.
  virtual void claim_match(MatchId match, int64_t epoch, std::string_view node) = 0;
  virtual std::optional<MatchOwner> match_owner(MatchId match) = 0;

  // Replaces a seat's token (a player who joined later or asked for a new one).
  virtual void set_token(MatchId match, engine::Seat seat, std::string_view token) = 0;
  // The live match and seat a reconnect token belongs to.
  virtual std::optional<TokenSeat> find_token(std::string_view token) = 0;
  // The highest match id ever given out (ids are never reused, even after a prune); 0 if none.
  virtual MatchId last_match_id() = 0;
  // Counts the ids up to `up_to` as given out (durable when it returns), so last_match_id() is at
  // least `up_to` from now on: the server numbers a match when it is created, long before it is
  // stored at its start, and must not give that number out again after a restart.
  virtual void reserve_match_ids(MatchId up_to) = 0;

  // Recovery: every live match with its config and action log, oldest first. A match whose
  // record cannot be read is listed with its `problem` rather than failing the whole recovery.
  virtual std::vector<StoredMatch> unfinished_matches() = 0;
  // Recovery: every match that ended at or after `since_ms`, oldest first, loaded as
  // unfinished_matches() loads them. A restart brings them back for the rest of their time in the
  // listing, since their players may not have been shown the end before the process died.
  virtual std::vector<StoredMatch> recently_ended_matches(int64_t since_ms) = 0;
  // Forgets the token hashes of the matches that ended before `before_ms`: a token opens an ended
  // match only while it is still listed (and comes back after a restart). Returns the seats.
  virtual int64_t forget_ended_tokens(int64_t before_ms) = 0;
  // Any match with its whole log, as committed: any node of a cluster may load any match.
  virtual std::optional<StoredMatch> load_match(MatchId match) = 0;
  // Replays: ended matches, newest first, filtered by `query`.
  virtual std::vector<MatchSummary> list_ended(const ReplayQuery& query) = 0;
  // Stores an ended match from an export file (its seed must be revealed).
  // `id` 0: the store picks the next id.
  virtual MatchId import_record(const fairness::MatchRecord& record, int64_t now_ms,
                                MatchId id = 0) = 0;

  virtual PruneReport prune(const RetentionPolicy& policy, int64_t now_ms) = 0;

  // One-write conveniences over write_batch (epoch 0: for matches never claimed).
  MatchId create_match(const NewMatch& match);
  void append(const LoggedAction& action);
  void append_batch(std::span<const LoggedAction> actions);
  // Ends a match: records its result and reveals its seed; its reconnect tokens no longer find
  // it (find_token), and their hashes go with forget_ended_tokens.
  void finish_match(MatchId match, const engine::Outcome& outcome, int64_t ended_ms);
  // Ends a match that cannot go on (an engine invariant broke, it was cancelled).
  void abandon_match(MatchId match, std::string_view reason, int64_t ended_ms);

 protected:
  // unfinished_matches() and recently_ended_matches() of every backend: loads each match in `ids`
  // (no lock held), and lists one whose record cannot be read with its `problem`.
  std::vector<StoredMatch> load_for_recovery(const std::vector<MatchId>& ids);
};

// Scores as the stores keep them: comma-separated.
std::string join_scores(const std::vector<int32_t>& scores);
std::vector<int32_t> parse_scores(std::string_view text);
MatchStatus parse_status(std::string_view text);

// Hash under which a reconnect token is stored and looked up: SHA-256 of its bytes.
std::string token_hash(std::string_view token);

}  // namespace duelhall::storage
