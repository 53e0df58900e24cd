// The interface every ruleset implements, modelled on OpenSpiel's State.
//
// A State is one match. The public `apply` is a fixed wrapper: it checks the seat, the pending
// decision and the action, records the step, and only then calls the ruleset's `do_apply`, so no
// ruleset can forget to validate or record a move, and a refused action leaves the state exactly
// as it was. Randomness comes only from the match's own Rng through `roll` and `shuffle`, which
// record each chance step, so a match replays from its seed and its actions.
//
// Contract for implementers:
//  - `pending()` is the set of seats that must decide now (several at once is allowed: a
//    defender answering during another's turn, a secret simultaneous setup). Empty iff terminal.
//  - `legal_actions(seat, out)` fills a sorted, duplicate-free list; empty when the seat is not
//    pending. Every listed action must apply.
//  - `write_view(viewer, out)` writes the ruleset's view message (protobuf wire format, see
//    bytes.hpp): everything that viewer may see, and nothing else.
//  - `resample_hidden(viewer, rng)` redraws everything the viewer cannot see, consistently with
//    what it knows (the leak test requires the viewer's view to stay byte-identical). The result
//    must depend only on what the viewer sees and on `rng`, never on the true hidden cards (gather
//    the unseen cards in an order of their own, e.g. sorted, before drawing): the expert bot's
//    determinizations come from it, and its no-peeking test requires the same decision whatever
//    the truth.
//  - `inventory()` lists everything the rules conserve (cards by id, counters by owner): the
//    test harness requires it to be the same after every action.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/action.hpp"
#include "core/bytes.hpp"
#include "core/event.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace duelhall::engine {

struct MatchConfig {
  std::string ruleset;
  int seats = 2;
  Seed seed{};
  Params params;
  // Per-seat setup text the ruleset understands (a Young Jedi deck list); may be empty.
  std::vector<std::string> seat_options;
  bool operator==(const MatchConfig&) const = default;
};

// Why an action was refused. The numbers are stable: the protocol's result codes mirror them.
enum class RefusalCode : uint8_t {
  kNone = 0,
  kNoSuchSeat = 1,       // the seat number is not in this match
  kNotYourDecision = 2,  // the seat exists but no decision of it is pending
  kMatchOver = 3,        // the match has ended
  kMalformed = 4,        // the action does not decode to anything this ruleset knows
  kIllegal = 5,          // well formed, but the rules do not allow it now
};
const char* to_string(RefusalCode code);

struct ApplyResult {
  RefusalCode code = RefusalCode::kNone;
  std::string reason;
  bool ok() const { return code == RefusalCode::kNone; }
  static ApplyResult accepted() { return {}; }
  static ApplyResult refused(RefusalCode code, std::string reason) {
    return {code, std::move(reason)};
  }
};

struct Step {
  Seat seat = 0;
  Action action;
  bool operator==(const Step&) const = default;
};

// One recorded draw from the match's random source: a die roll or a shuffle's permutation.
struct ChanceRecord {
  uint32_t after_step = 0;  // number of player steps applied before it
  std::string what;         // "shuffle draw deck", "D6 initiative Ann"
  std::vector<uint16_t> values;
  bool operator==(const ChanceRecord&) const = default;
};

struct Outcome {
  SeatMask winners;  // several winners share a draw; none means nobody won
  std::vector<int32_t> scores;
  std::string reason;
  bool draw() const { return winners.count() != 1; }
};

class State {
 public:
  explicit State(MatchConfig config);
  virtual ~State() = default;

  const MatchConfig& config() const { return config_; }
  int num_seats() const { return config_.seats; }

  virtual SeatMask pending() const = 0;
  virtual void legal_actions(Seat seat, std::vector<Action>& out) const = 0;
  std::vector<Action> legal_actions(Seat seat) const;
  virtual std::string action_label(Seat seat, Action action) const = 0;

  // Validates, records and applies. Events, if wanted, are appended to `events`.
  ApplyResult apply(Seat seat, Action action, std::vector<Event>* events = nullptr);

  virtual bool terminal() const = 0;
  virtual Outcome outcome() const = 0;

  virtual std::unique_ptr<State> clone() const = 0;

  // The full state, including the random source's position and the history.
  std::string serialize() const;

  std::string view(const Viewer& viewer) const;
  virtual void write_view(const Viewer& viewer, std::string& out) const = 0;

  virtual void resample_hidden(const Viewer& viewer, Rng& rng) = 0;
  virtual std::vector<int32_t> inventory() const = 0;

  const std::vector<Step>& history() const { return history_; }
  const std::vector<ChanceRecord>& chance_log() const { return chance_log_; }
  const Rng& rng() const { return rng_; }
  // For a search's private copy only: gives it a random source of its own, so that the chance
  // steps it draws next (dice, reshuffles) come from the searcher's generator and not from the
  // match's future. A reseeded state no longer replays from its config's seed.
  void reseed_chance(const Seed& seed) { rng_ = Rng(seed); }
  // For a search's private copy only: forgets the history and the chance log and records no
  // more (a search never reads them, and they would lengthen every copy it makes).
  void stop_recording();
  // For a search's private copy only: applies an action the caller took from
  // legal_actions(seat) for this very position, without checking it again. A match's state
  // always goes through apply().
  void apply_known_legal(Seat seat, Action action);

  // Used by Registry::deserialize: reads what serialize() wrote after the config.
  void load(ByteReader& in);

 protected:
  // The ruleset's own step, called only with a validated action of a pending seat.
  virtual void do_apply(Seat seat, Action action) = 0;
  // Default: kinds 0 and above last_action_kind() are malformed; otherwise legal iff listed by
  // legal_actions, and explain_refusal says why not. Override only for speed.
  virtual ApplyResult check_action(Seat seat, Action action) const;
  // The highest action kind the ruleset defines.
  virtual uint8_t last_action_kind() const { return 255; }
  // The refusal of a well-formed action that is not legal now: kIllegal naming the rule it
  // breaks, or kMalformed for arguments that name nothing.
  virtual ApplyResult explain_refusal(Seat seat, Action action) const;

  virtual void save_rules(ByteWriter& out) const = 0;
  virtual void load_rules(ByteReader& in) = 0;

  // Chance steps: the only way a ruleset may use randomness.
  int roll(int sides, std::string_view what);
  template <typename T>
  void shuffle(std::span<T> items, std::string_view what) {
    std::vector<uint16_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint16_t>(i);
    rng_.shuffle(std::span<uint16_t>(order));
    std::vector<T> copy(items.begin(), items.end());
    for (size_t i = 0; i < order.size(); ++i) items[i] = copy[order[i]];
    record_chance(what, std::move(order));
  }

  bool wants_events() const { return events_ != nullptr; }
  void emit(Event event) {
    if (events_) events_->push_back(std::move(event));
  }

 private:
  void record_chance(std::string_view what, std::vector<uint16_t> values);

  MatchConfig config_;
  Rng rng_;
  std::vector<Step> history_;
  std::vector<ChanceRecord> chance_log_;
  std::vector<Event>* events_ = nullptr;
  bool recording_ = true;
};

}  // namespace duelhall::engine
