// The hub: the registries of players and matches, the lobby listing and its subscribers. It is
// shared by every connection, so it locks; it holds its lock only to read or change a registry,
// copies what it needs (weak_ptrs, serialized listings) and sends outside the lock.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "decks/deck_host.hpp"
#include "envelope.pb.h"
#include "match/action_log.hpp"
#include "match/bot_pacer.hpp"
#include "match/bot_pool.hpp"
#include "match/event_words.hpp"
#include "match/match.hpp"
#include "match/match_host.hpp"
#include "match/player.hpp"
#include "friends/friends_host.hpp"
#include "friends/friends_room.hpp"
#include "moderation/moderation_host.hpp"
#include "pairing/pairing_host.hpp"
#include "tournament_room/tournament_host.hpp"
#include "replays/replay_host.hpp"

namespace duelhall::storage {
class MatchStore;
}
namespace duelhall::accounts {
class AccountService;
class HashingPool;
class ModerationService;
struct EndedSessions;
}  // namespace duelhall::accounts
namespace duelhall::cluster {
class ClusterNode;
}

namespace duelhall::server {

class Match;
class PairingRoom;
class TournamentRoom;

// The longest decision clock (a day): its milliseconds must fit MatchUpdate.clock_ms.
inline constexpr uint32_t kMaxClockSeconds = 86'400;
// Whether `level` is one of the ruleset's bot levels.
bool offers_bot_level(const engine::RulesetInfo& info, const std::string& level);

// A match rebuilt from its stored log at start (main.cpp reads the store and replays).
struct RecoveredMatch {
  uint64_t id = 0;
  HostedMatch hosted;
  std::unique_ptr<engine::State> state;
  std::vector<std::string> names;         // by seat
  std::vector<std::string> token_hashes;  // by seat; empty for a bot's seat
  RecoveredSpectators spectators;
  std::optional<RecoveredEnding> ending;  // set for a match whose end was stored
  // Cluster mode: the fencing epoch this node already holds the match's lease and claim at (an
  // adoption, or a recovery at start); 0: the hub acquires its lease as for a new match.
  int64_t epoch = 0;
};

struct CreateOutcome {
  ResultCode code = OK;
  std::string reason;
  std::shared_ptr<Match> match;
  std::string invite;
  int seat = -1;
  MatchInfo info;  // the match as created, before anyone else can change it
};

class Hub : public MatchHost,
            public ModerationHost,
            public ReplayHost,
            public FriendsHost,
            public PairingHost,
            public DeckHost,
            public TournamentHost,
            public std::enable_shared_from_this<Hub> {
 public:
  Hub(boost::asio::io_context& io, const engine::Registry& registry, Config config,
      std::shared_ptr<ActionLogFactory> logs);

  const engine::Registry& registry() const override { return registry_; }
  const Config& config() const override { return config_; }
  boost::asio::io_context& io() override { return io_; }
  BotPool* bot_pool() override { return bot_pool_.get(); }
  uint32_t bot_pace_ms() const override { return bot_pacer_->pace_ms(); }
  // Started by the server's main (its probes keep the I/O context busy), stopped at the drain.
  BotPacer& bot_pacer() { return *bot_pacer_; }
  EventWords* event_words() override { return &event_words_; }

  // Players.
  std::shared_ptr<Player> new_player(const std::string& name);
  std::shared_ptr<Player> find_player(const std::string& token);
  // The player's resume token no longer resumes it (a kick); its seats wait out the grace period.
  void forget_token(const std::string& token) override;
  // The player's connection closed: its seats show it disconnected, and after the grace period
  // (unless it resumes) it is forgotten and its seats go to the bot.
  void player_dropped(const std::shared_ptr<Player>& player, const Peer* peer);

  // The match store (replays, export, import); null when the server stores nothing.
  void set_store(storage::MatchStore* store) { store_ = store; }
  storage::MatchStore* store() const override { return store_; }
  // Whether the match store takes writes now (/readyz); set before serving, called from any
  // thread. Unset: it does.
  void set_store_available(std::function<bool()> available) {
    store_available_ = std::move(available);
  }
  bool store_available() const { return !store_available_ || store_available_(); }
  // Saved decks (decks/); null when the server keeps none.
  void set_decks(storage::DeckStore* decks) { decks_ = decks; }
  storage::DeckStore* deck_store() const override { return decks_; }
  // Accounts and ratings; null when the server offers none.
  void set_accounts(accounts::AccountService* accounts) { accounts_ = accounts; }
  accounts::AccountService* accounts() const override { return accounts_; }
  // The threads that hash passwords (accounts/hashing_pool.hpp); null: the I/O thread does.
  void set_hashing(accounts::HashingPool* pool) { hashing_ = pool; }
  accounts::HashingPool* hashing() const { return hashing_; }
  // Sessions ended (hub_sessions.cpp): every player bound to one of them, connected or within
  // its grace period, loses the account (its resume token resumes a guest), and its connection
  // other than `acting` (the one that ended them) closes with BAD_SESSION.
  void end_sessions(const accounts::EndedSessions& ended, const Peer* acting);
  // Matches tell the accounts who sat where at the start, and a rated match its result at the
  // end; both run in order on one strand off the matches' own. The seats' players then get the
  // rating changes (RatingUpdate).
  void record_match_accounts(uint64_t match_id, std::vector<std::pair<int, int64_t>> seats,
                             bool rated) override;
  void rated_match_ended(uint64_t match_id, std::string ruleset, uint64_t winners,
                         std::vector<std::shared_ptr<Player>> players) override;

  // Moderation (docs/moderation.md): null when the server offers no accounts. The roster holds
  // the connections that said Hello, the chat log the recent lines a player may report.
  void set_moderation(accounts::ModerationService* moderation) { moderation_ = moderation; }
  accounts::ModerationService* moderation() const override { return moderation_; }
  Roster& roster() override { return roster_; }
  ChatLog& chat_log() override { return chat_log_; }
  uint64_t chat_line(uint64_t match_id, const Player& sender, const std::string& text) override {
    return chat_log_.add(match_id, sender, text);
  }
  bool ignores(uint64_t receiver_peer_id, const Player& sender) override {
    return roster_.ignores(receiver_peer_id, sender);
  }
  // Every match, listed or not, as last published (for moderators, presence and the TV).
  void list_every_match(MatchList& out) override;
  // The same, and in a cluster the other nodes' listings beside (presence and the TV).
  void list_cluster_matches(MatchList& out) override;

  // The friends room (friends/): challenges, follows and presence, counts, TV.
  FriendsRoom& friends() override { return *friends_; }
  std::vector<std::shared_ptr<Peer>> lobby_subscribers() override { return subscribers(); }
  // A challenge's match, through create_match and the match's join (lobby/hub_challenges.cpp).
  Handled start_challenge(const std::shared_ptr<Player>& challenger, const MatchSettings& settings,
                          const std::string& challenger_option, Call& accept,
                          const std::string& accepter_option, uint64_t& match_id) override;
  void start_challenge_for_remote(const std::shared_ptr<Player>& challenger,
                                  const MatchSettings& settings,
                                  const std::string& challenger_option,
                                  ChallengeMatchMade made) override;
  // Quick pairing and rematches (pairing/pairing_room.hpp, lobby/hub_pairing.cpp): the room,
  // which app/ starts, and what it asks of the hall.
  PairingRoom& pairing() { return *pairing_; }
  bool seated_in_unended_match(Player& player) override;
  PairingCreated create_for_pairing(const std::shared_ptr<Player>& creator,
                                    const CreateMatch& request) override;
  void when_open(const std::shared_ptr<Match>& match, std::function<void()> then) override;
  bool clustered() const override { return cluster_ != nullptr; }

  // Tournaments (tournament_room/, lobby/hub_tournaments.cpp): the room, which app/ starts, and
  // what it asks of the hall. The store is the accounts' (null: tournaments live in memory).
  TournamentRoom& tournaments() { return *tournaments_; }
  void set_tournament_store(storage::TournamentStore* store) { tournament_store_ = store; }
  storage::TournamentStore* tournament_store() const override { return tournament_store_; }
  int32_t rating_of(int64_t account, const std::string& ruleset) override;
  bool directs_tournaments(const ClientState& state) override;
  std::optional<uint32_t> clock_seconds(const std::string& ruleset,
                                        const std::string& clock) override;
  std::pair<std::shared_ptr<Player>, std::shared_ptr<Peer>> connected(int64_t account) override;
  TournamentMatch create_for_tournament(const std::shared_ptr<Player>& creator,
                                        const CreateMatch& request) override;
  void match_ended(uint64_t match_id, uint64_t winners, bool aborted) override;

  // A new match id (for an imported match): live and stored matches share one numbering.
  uint64_t allocate_match_id() override;

  // Recovery, before the server listens: match ids continue after `last_id`, and each
  // recovered match waits for its players, who reconnect with their tokens (find_player).
  void continue_ids_after(uint64_t last_id);
  void recover(RecoveredMatch recovered);
  // After the grace period, seats nobody reclaimed go to the bot.
  void arm_recovery_grace();

  // Matches. A draining hub (SIGTERM) creates none: create_match answers SERVER_DRAINING.
  void stop_taking_matches() { draining_ = true; }
  bool taking_matches() const { return !draining_; }
  // In a cluster the match is not opened yet: open_when_leased answers the creation and opens it
  // once its lease is in Redis (without a cluster it is open on return).
  CreateOutcome create_match(const std::shared_ptr<Player>& host, const CreateMatch& request);
  void open_when_leased(const std::shared_ptr<Match>& match, std::function<void()> answer);
  std::shared_ptr<Match> find_match(uint64_t id) override;
  void remove_match(uint64_t id) override;
  size_t match_count();
  std::vector<uint64_t> hosted_match_ids();

  // Lobby: a match publishes its listing whenever it changes.
  void publish(const MatchInfo& info) override;
  void list(MatchList& out);
  void subscribe(const std::shared_ptr<Peer>& peer, bool on);
  void unsubscribe(const Peer* peer);
  // To every subscriber but those who ignore `from`.
  void lobby_chat(const Player& from, const std::string& text);

  // Cluster mode (docs/cluster.md, lobby/hub_cluster.cpp), set before the hub serves: new match
  // ids are the cluster's, this node's listings are published to it and leased there, and the
  // other nodes' listings (with their node) are listed beside this node's.
  void set_cluster(std::shared_ptr<cluster::ClusterNode> cluster);
  cluster::ClusterNode* cluster() const override { return cluster_.get(); }
  // Another node's listing appeared or changed (`removed`: went); subscribers are told.
  void remote_listing(const MatchInfo& info, bool removed);
  // Every other node's listing, after the lobby feed reconnected.
  void replace_remote_listings(std::vector<MatchInfo> listings);
  // The node that hosts a listed match of another node, or empty.
  std::string remote_node_of(uint64_t match_id);
  // This node's public listings (published again after the cluster's Redis came back).
  std::vector<MatchInfo> own_listings();
  // This node acquired the match's lease at `epoch`: its log claims it and carries the epoch.
  void match_owned(uint64_t match_id, int64_t epoch);
  // Another node adopted the match (the heartbeat said so): it stops here (Match::moved).
  void match_lost(uint64_t match_id);
  void moved_away(uint64_t id) override;

 private:
  void tell_subscribers(const MatchInfo& info, bool removed);
  // Forgets the match and its listing here; returns the listing it had, if it was listed.
  std::optional<MatchInfo> forget_match(uint64_t id);
  // The cluster's side of creating, ending and listing a match (no-ops without a cluster).
  uint64_t cluster_match_id();
  void cluster_match_opened(uint64_t id, std::function<void()> answered = nullptr);
  // The log of a match recovered under a lease and claim this node holds at `epoch` already.
  void cluster_claimed(ActionLog& log, uint64_t id, int64_t epoch);
  void cluster_match_closed(uint64_t id, bool was_listed);
  void cluster_match_ended(uint64_t id);
  void set_cluster_node(MatchInfo& info) const;
  void cluster_publish(const MatchInfo& info);
  std::vector<std::shared_ptr<Peer>> subscribers();
  // Records in the store that the ids through `id` are given out, a block at a time, so that no
  // id is used twice after a restart (a waiting match is stored only at its start). Throws the
  // store's error.
  void reserve_ids_through(uint64_t id);

  boost::asio::io_context& io_;
  const engine::Registry& registry_;
  const Config config_;
  std::shared_ptr<ActionLogFactory> logs_;
  storage::MatchStore* store_ = nullptr;
  std::function<bool()> store_available_;
  accounts::AccountService* accounts_ = nullptr;
  storage::DeckStore* decks_ = nullptr;
  accounts::HashingPool* hashing_ = nullptr;
  accounts::ModerationService* moderation_ = nullptr;
  Roster roster_;
  ChatLog chat_log_;
  EventWords event_words_;  // before the matches, which use it until they go
  boost::asio::strand<boost::asio::io_context::executor_type> accounts_strand_;

  std::atomic<bool> draining_{false};
  std::mutex mutex_;
  uint64_t next_player_ = 1;
  uint64_t next_match_ = 1;
  std::mutex reserve_mutex_;  // held while the store reserves ids, not while the hub serves
  uint64_t reserved_through_ = 0;
  std::unordered_map<std::string, std::shared_ptr<Player>> players_by_token_;
  std::map<uint64_t, std::shared_ptr<Match>> matches_;
  std::map<uint64_t, MatchInfo> listings_;       // public matches only
  std::map<uint64_t, MatchInfo> every_listing_;  // unlisted ones too, for moderators
  std::set<uint64_t> ended_;                     // ended, still listed for a while
  std::shared_ptr<cluster::ClusterNode> cluster_;
  std::map<uint64_t, MatchInfo> remote_listings_;  // other nodes' public matches
  std::map<uint64_t, std::weak_ptr<Peer>> subscribers_;
  // Token hash of a recovered seat -> (match, seat, display name), until reclaimed.
  struct RecoveredSeat {
    uint64_t match = 0;
    int seat = 0;
    std::string name;
  };
  std::unordered_map<std::string, std::vector<RecoveredSeat>> recovered_seats_;
  std::unique_ptr<FriendsRoom> friends_;
  std::shared_ptr<PairingRoom> pairing_;
  std::shared_ptr<TournamentRoom> tournaments_;
  storage::TournamentStore* tournament_store_ = nullptr;
  // Last, so that it goes first: its threads are joined while the matches still stand.
  std::unique_ptr<BotPool> bot_pool_;
  std::shared_ptr<BotPacer> bot_pacer_;
};

}  // namespace duelhall::server
