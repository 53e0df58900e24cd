// One hosted match: its engine State, its seats (humans, bots), its spectators, and each
// viewer's last view, all owned by the match's strand. Sessions call the public methods from
// any thread; each posts its work to the strand and replies to the caller from there.
//
// After every accepted action each seat gets a MatchUpdate with the patch from its previous view
// to its new one, its events and its legal actions; the spectators share one update (one set of
// bytes), optionally held back by the host's spectator delay. A seat's recent updates are held
// so that a player who reconnects gets exactly what it missed. An exception from the engine ends
// this match (ABORTED) and nothing else.
//
// Durability: every accepted action goes to the match's ActionLog, and whatever the strand
// produces from then on (the action's updates, its reply, later replies) is held until the log
// reports the action durable, then sent in order; the end too is stored before anyone is told.
// A store that cannot take writes pauses the match (match_storage.cpp): the unstored steps are
// taken back and their actions refused with STORAGE_UNAVAILABLE, and play resumes by itself once
// the store is back. A log that refuses a write ends the match (ABORTED) without sending the
// unstored step's effects.
#pragma once

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/container/devector.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "envelope.pb.h"
#include "match/action_log.hpp"
#include "match/bot_pool.hpp"
#include "match/event_words.hpp"
#include "match/match_host.hpp"
#include "match/player.hpp"
#include "metrics/server_metrics.hpp"
#include "net/outbox.hpp"
#include "net/peer.hpp"

namespace duelhall::server {

// The spectators' stream of a recovered match, as the host's delay left it: the public view they
// were shown (the match's view at `seq`) and the later steps the delay still holds back, each
// with its public view, its events as spectators read them, and when it is due.
struct RecoveredSpectators {
  struct Step {
    uint64_t seq = 0;
    int64_t due_in_ms = 0;  // from the recovery on
    std::string view;
    std::vector<std::string> events;
  };
  uint64_t seq = 0;
  std::string view;
  std::vector<Step> held;
};

// How a recovered match had ended, for one whose end was stored shortly before the restart: it
// comes back only to be shown, for what is left of its time in the listing.
struct RecoveredEnding {
  bool aborted = false;
  Outcome outcome;  // as stored
  std::chrono::milliseconds listed_for{0};
};

// A FIFO that allocates nothing while empty (libstdc++'s std::deque allocates 576 bytes even
// then, and a match has five of them).
template <typename T>
using Fifo = boost::container::devector<T>;

// An update a seat was sent, held for a reconnect; the first `prefix` bytes of an actor's are
// its action's request_id, which a resend leaves out.
struct HeldUpdate {
  uint64_t seq = 0;
  Frame frame;
  uint32_t prefix = 0;
};

class Match : public std::enable_shared_from_this<Match> {
 public:
  using Clock = std::chrono::steady_clock;
  Match(MatchHost& hub, uint64_t id, const engine::RulesetInfo& ruleset, MatchSettings settings,
        std::string invite, std::shared_ptr<Player> host, std::unique_ptr<ActionLog> log);

  uint64_t id() const { return id_; }
  const engine::RulesetInfo& ruleset() const { return ruleset_; }
  // Fixed at creation (or recovery, before the match is shared): safe from any thread.
  const std::string& seed_commitment() const { return commitment_; }

  // Set-up before the match is shared with anyone (no strand needed yet).
  void seat_creator(const std::shared_ptr<Player>& host, std::string option);
  void seat_bots(int count);
  // The match as its creator is told of it (MatchCreated), as ListMatches will list it.
  void describe(MatchInfo& info) const { fill_match_info(info); }
  // Publishes the listing and starts the match if its seats are already full.
  void open();
  // Set-up of a match rebuilt from its log after a restart, instead of the above: `humans[i]`
  // says whether seat i was a player's (it waits for the player's reconnect, within the grace
  // period) or a bot's; `spectators` is what the spectators had been shown and what their delay
  // still holds back; `ending`, how it ended if its end was stored.
  void recover(std::unique_ptr<engine::State> state, const std::vector<std::string>& names,
               const std::vector<bool>& humans, RecoveredSpectators&& spectators,
               std::optional<RecoveredEnding> ending = std::nullopt);
  // A player reconnected after a restart with the token of seat `seat`.
  void reclaim(int seat, std::shared_ptr<Player> player);
  // The seats of a recovered match nobody reclaimed within the grace period go to the bot.
  void recovery_grace_over();
  // The hosting settings stored with the match, so a restart keeps them.
  std::string hosted_record() const;

  // Commands: each replies to `peer` with `request_id`.
  void join(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, JoinMatch request,
            uint64_t request_id);
  void leave(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, uint64_t request_id);
  void spectate(std::shared_ptr<Peer> peer, std::string invite, uint64_t request_id);
  void fill_bots(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, std::string level,
                 uint64_t request_id);
  void act(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, SubmitAction request,
           uint64_t request_id);
  void resync(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, uint64_t request_id);
  void chat(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, std::string text,
            uint64_t request_id);
  // The player's seat loses at once and every other seat wins (match_resign.cpp).
  void resign(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, uint64_t request_id);
  // Ends a match in play as aborted, with no winner; `done` gets the outcome on the match's
  // strand (WRONG_MATCH_STATE before the start, MATCH_OVER after the end; match_abort.cpp).
  void abort(std::string reason, std::function<void(ResultCode, std::string)> done);

  // Who sits where now, for a rematch or a pairing's check (match_seats.cpp): `done` runs on
  // the match's strand, after every command posted before this call.
  struct SeatsNow {
    MatchStatus status = WAITING;
    MatchSettings settings;
    std::vector<std::shared_ptr<Player>> players;  // by seat; null for a bot or an empty seat
    std::vector<std::string> options;              // the seats' setup texts
  };
  void seats_now(std::function<void(const SeatsNow&)> done);

  // Cluster mode (match_moved.cpp): this node owns the match at fencing `epoch` (as `node`), so
  // its log claims it and carries the epoch; or it lost the match to another node (`why`), so it
  // stops here without ending: no write, its connections closed to reconnect to the new owner.
  void owned(int64_t epoch, std::string node);
  void moved(std::string why);

  // Connection events.
  void resume(std::shared_ptr<Player> player, std::optional<uint64_t> last_seq);
  void dropped(std::shared_ptr<Player> player);
  void abandoned(std::shared_ptr<Player> player);
  void spectator_gone(uint64_t peer_id);

 private:
  struct SeatSlot {
    SeatInfo::Occupant occupant = SeatInfo::EMPTY;
    std::shared_ptr<Player> player;
    std::shared_ptr<engine::Bot> bot;  // shared with the thread it may be thinking on
    std::string option;
    bool connected = false;
    std::string view;       // the view as of the seat's last update
    Fifo<HeldUpdate> held;  // recent updates, for reconnects
    uint32_t protocol = 1;  // the version `held` was built for
    // What the seat's client was told (protocol 2): a hash of its legal codes as of its last
    // update or snapshot (0: none yet), and the hash of the label told for each code (bounded:
    // when full it starts over, which only resends labels). Snapshots tell everything.
    mutable uint64_t legal_told = 0;
    mutable std::vector<std::pair<uint64_t, uint32_t>> labels_told;
    // Protocol 4: the event words told in this seat's frames to the connection `words_peer`
    // (Peer::peer_id). Per seat, not per connection: the match's frames reach a connection in
    // the order its strand queues them, while another match's strand could send a frame using a
    // word before this match's frame that tells it.
    WordsTold words_told;
    uint64_t words_peer = 0;
    std::unique_ptr<boost::asio::steady_timer> clock;
    uint64_t clock_generation = 0;
    Clock::time_point deadline{};  // epoch: no clock running
  };
  struct Spectator {
    std::weak_ptr<Peer> peer;
    uint64_t peer_id = 0;
  };
  // One step of the public view, waiting for the spectator delay to pass.
  struct DelayedStep {
    uint64_t seq = 0;  // the match's seq this view belongs to: spectators count the same way
    Clock::time_point due;
    std::string view;
    std::vector<std::string> events;
  };

  // Runs `work(outbox)` on the strand, turning an engine exception into the end of this match.
  // A template, so that the work travels in the strand's recycled handler memory rather than in
  // a std::function of its own (one allocation per command).
  template <typename Work>
  void run(Work work) {
    boost::asio::post(strand_, [self = shared_from_this(), work = std::move(work)]() mutable {
      Outbox out;
      try {
        work(out);
      } catch (const std::exception& e) {
        self->fault_safely(e.what(), out);
      }
      self->current_peer_.reset();
      self->current_request_ = 0;
      self->release(std::move(out));
    });
  }
  // fault(), logging (rather than throwing) an exception from it.
  void fault_safely(const std::string& what, Outbox& out);
  // Sends `out` now, or holds it behind the actions not yet durable.
  void release(Outbox&& out);
  // The log stored (or failed to store) the action of `ticket`; from any thread.
  void durable(uint64_t ticket, const LogOutcome& outcome);
  void on_durable(uint64_t ticket, const LogOutcome& outcome);

  // Membership (match.cpp).
  int seat_of(const Player* player) const;
  bool is_spectator(uint64_t peer_id) const;
  int free_seats() const;
  void fill_match_info(MatchInfo& info) const;
  void publish();
  // The spectators came or went: the listing is published again and the match's players and
  // spectators are pushed the new count (SpectatorCount), but `told_peer`, the spectator who
  // just arrived, whose snapshot carries it.
  void spectators_changed(Outbox& out, uint64_t told_peer = 0);
  void send_presence(int seat, Outbox& out);
  // To the seated humans and, when `to_spectators`, the spectators but the one of `skip_peer`.
  void broadcast(const ServerMessage& message, bool to_spectators, Outbox& out,
                 uint64_t skip_peer = 0);
  void seat_bot(int seat, const std::string& level);
  void maybe_start(Outbox& out);

  // Play (match_play.cpp).
  void start(Outbox& out);
  bool apply(int seat, engine::Action action, Outbox& out, ResultCode& code, std::string& reason);
  void after_step(const std::vector<engine::Event>& events, Outbox& out);
  // What each viewer is told (match_views.cpp).
  // `fresh_view`: false when the engine may no longer be trusted (a fault) or did not change.
  void send_seat_update(int seat, const std::vector<engine::Event>& events, bool fresh_view,
                        Outbox& out);
  void fill_legal(int seat, google::protobuf::RepeatedPtrField<LegalAction>& out) const;
  // Protocol 4: the seat's events as word ids, telling the words not told yet in this seat's
  // frames to connection `peer_id` (0: none now; the frame is only held); false (nothing
  // added) when they cannot be coded, and then they go as texts.
  bool fill_event_words(int seat, uint64_t peer_id, const std::vector<engine::Event>& events,
                        MatchUpdate& update);
  // Protocols 2 and 3: the legal codes when they changed, and the labels not told yet.
  void fill_legal_changes(int seat, MatchUpdate& update);
  // Records that the seat's client now knows `code`'s label; false when it already did.
  static bool tell_label(const SeatSlot& slot, uint64_t code, const std::string& label);
  void fill_outcome(Outcome& out) const;
  ServerMessage snapshot(int seat) const;
  // The spectators' stream and the arming of bots (match_timers.cpp).
  void queue_spectator_step(const std::vector<engine::Event>& events, bool fresh_view, Outbox& out);
  void release_spectators(Outbox& out);
  void arm_spectator_timer();
  void schedule_bots();
  // Bots (match_bots.cpp): the pending bot moves, at once or by handing its search to the
  // host's BotPool, whose answer comes back through bot_moved.
  void bot_step(Outbox& out);
  bool think_elsewhere(int seat, BotPool& pool);
  void bot_moved(int seat, uint64_t seq, engine::Action action, const std::string& error,
                 Outbox& out);
  void play_bot_move(int seat, engine::Action action, Outbox& out);
  void play_heuristic_move(int seat, Outbox& out);  // what a searching bot plays in haste
  engine::SearchBudget bot_budget() const;
  void arm_clocks();
  void stop_clock(SeatSlot& slot);
  void clock_expired(int seat, uint64_t generation, Outbox& out);
  // Ends the match without the engine's verdict (a forfeit, or an engine fault when `aborted`).
  void force_end(std::string reason, engine::SeatMask winners, bool aborted, Outbox& out);
  // After a seat went to the bot: with no human left, the match ends (or plays on among bots,
  // as the host's config says; match_resign.cpp).
  void after_last_human(Outbox& out);
  void ended(const std::string& result);
  void fault(const std::string& what, Outbox& out);

  // Rated matches (match_rated.cpp).
  std::optional<std::pair<ResultCode, std::string>> rated_join_refusal(const Player& player) const;
  // A rated match ends with `seat` losing; false (nothing done) when the match is not rated.
  bool rated_forfeit(int seat, Outbox& out);
  // Refuses FillWithBots on a rated match; false when the match is not rated.
  bool rated_refuses_bots(const std::shared_ptr<Peer>& peer, uint64_t request_id, Outbox& out);
  void record_accounts();
  void report_rated_end(const MatchEnd& end);

  MatchHost& hub_;
  const uint64_t id_;
  const engine::RulesetInfo& ruleset_;
  const MatchSettings settings_;
  const std::string invite_;
  const std::string host_name_;
  const uint64_t host_id_;
  std::unique_ptr<ActionLog> log_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;

  MatchStatus status_ = WAITING;
  std::vector<SeatSlot> seats_;
  std::vector<Spectator> spectators_;
  std::unique_ptr<engine::State> state_;
  engine::Rng bot_rng_;
  uint64_t seq_ = 0;
  bool bot_scheduled_ = false;             // a bot's move is due or being thought elsewhere
  std::optional<Outcome> forced_outcome_;  // a forfeit or fault, which the engine did not decide

  std::string spectator_view_;
  uint64_t spectator_seq_ = 0;
  // With no spectators and no delay the public view is not computed until someone watches.
  bool spectator_view_stale_ = false;
  std::unique_ptr<boost::asio::steady_timer> bot_timer_;
  Fifo<DelayedStep> delayed_;
  std::unique_ptr<boost::asio::steady_timer> spectator_timer_;
  std::unique_ptr<boost::asio::steady_timer> linger_timer_;

  // Durability: tickets count the actions given to the log; outboxes wait for theirs.
  uint64_t logged_ticket_ = 0;
  uint64_t durable_ticket_ = 0;
  Fifo<std::pair<uint64_t, Outbox>> held_out_;
  struct HeldReply {
    uint64_t ticket = 0;
    std::shared_ptr<Peer> peer;
    uint64_t request_id = 0;
    // For the action-to-update latency; none for a resignation.
    std::chrono::steady_clock::time_point received{};
  };
  Fifo<HeldReply> held_replies_;  // OK replies to actions not yet durable
  // What the match was before each write not yet durable (its ticket's), to go back to should
  // the write fail.
  struct Unstored {
    uint64_t ticket = 0;
    size_t steps = 0;  // the history's length
    uint64_t seq = 0;
  };
  Fifo<Unstored> unstored_;
  // A ticket for the next write, which `steps` steps precede.
  uint64_t log_ticket(size_t steps);
  // The log failed: back to the point before `failed`, so nothing shows an unstored step.
  void forget_unstored(const Unstored& failed);

  // Waiting for the store (match_storage.cpp).
  void on_unstored(uint64_t ticket, const LogOutcome& outcome);
  void wait_for_storage(const std::string& why, Outbox& out);
  void probe_storage();
  void storage_back(Outbox& out);
  void tell_storage(bool waiting, const std::string& why, Outbox& out);
  ServerMessage storage_news(bool waiting, const std::string& why) const;
  // To a player who comes back while the match waits.
  void tell_storage_waiting(const std::shared_ptr<Peer>& peer, Outbox& out) const;
  // The refusal of a command while the match waits for its store.
  ServerMessage storage_refusal(uint64_t request_id) const;
  bool storage_wait_ = false;
  Clock::time_point storage_lost_{};
  std::unique_ptr<boost::asio::steady_timer> storage_timer_;
  uint64_t stale_through_ = 0;  // reports of tickets up to here are of writes taken back
  // The end being stored (told once it is), or waiting for the store to be written again.
  std::optional<MatchEnd> end_to_store_;
  uint64_t end_ticket_ = 0;
  void store_end();
  void stop_moved(const std::string& why, Outbox& out);
  // Drawn at creation so that its commitment is published before anyone joins.
  engine::Seed seed_{};
  std::string commitment_;
  std::vector<bool> recovered_seat_;  // a recovered seat waiting for its player

  // The request being served when an engine fault happens, so it gets its answer; for protocol
  // 2 the actor's update answers it (answered_ then says so).
  std::shared_ptr<Peer> current_peer_;
  uint64_t current_request_ = 0;

  metrics::RulesetMetrics& counts_ = metrics::server_metrics().ruleset(ruleset_.name);
  metrics::GaugeHold live_{counts_.live_matches};  // released when the match ends
  bool answered_ = false;
};

}  // namespace duelhall::server
