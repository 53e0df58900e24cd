// The friends room: challenges by account name, follows and the presence of the followed, the
// lobby's counts and the TV of each ruleset, on one node (docs/pairing.md, "Challenges, presence
// and TV"). Its handlers run on the connections' strands, its tick on the I/O loop; one mutex
// guards its state, and frames are sent after it is released.
//
// Presence, counts, TV and the challenges' expiry are looked at once a tick (Config
// presence_tick_ms, default 1 s): a change reaches the clients within a tick. A challenge to an
// account that is not connected is delivered at the first tick that finds it connected.
//
// In a cluster (friends_cluster*.cpp) each tick also writes this node's connected accounts to
// Redis and reads the other nodes', so presence, the online list and the counts are the
// cluster's; a challenge stays with its challenger's node, which tells the others of it on the
// channel "friends", and an answer made on another node is sent there.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cluster.pb.h"
#include "friends/challenge_book.hpp"
#include "friends/friends_host.hpp"
#include "net/outbox.hpp"

namespace duelhall::server {

class FriendsRoom {
 public:
  using Clock = std::function<int64_t()>;  // Unix milliseconds
  explicit FriendsRoom(FriendsHost& host);
  ~FriendsRoom();

  // The clock of expiry and of the TV's running times (tests move it by hand).
  void set_clock(Clock now_ms) { now_ms_ = std::move(now_ms); }
  // Arms the periodic tick on the host's I/O loop (the server does; tests call tick()).
  void start();
  void tick();

  Handled challenge(Call& call, const Challenge& request);
  Handled answer(Call& call, const AnswerChallenge& request);
  Handled cancel(Call& call, const CancelChallenge& request);
  Handled follow(Call& call, const std::string& name, bool on);
  Handled get_followed(Call& call);
  Handled get_tv(Call& call, const GetTv& request);
  // GET /api/tv/<ruleset>: the featured match as JSON (docs/protocol.md, "HTTP"), 404 for an
  // unknown ruleset; nullopt for other paths. Watching it stays a Spectate over the WebSocket.
  struct JsonAnswer {
    int status = 200;
    std::string body;
  };
  std::optional<JsonAnswer> answer_tv_http(std::string_view target);
  // Who is online (signed-in accounts, by name, bounded) with their presence.
  Handled list_online(Call& call, const ListOnline& request);

 private:
  // A connected account: its name and connections, and whether every one of them is idle. In a
  // cluster, an account connected to another node only has that node's name and no connection.
  struct Online {
    std::string name;
    std::vector<std::shared_ptr<Peer>> peers;
    std::shared_ptr<Player> player;
    bool away = true;
    bool guest = false;
    std::string node;  // empty: connected here
    bool here() const { return node.empty(); }
  };
  struct Followed {
    int64_t id = 0;
    std::string name;
  };
  using OnlineMap = std::map<int64_t, Online>;

  // The accounts connected here and, in a cluster, to the other nodes as last read.
  OnlineMap online_accounts();
  void arm();
  // Pushes `message` (request_id 0) to every connection of `account` in `online`.
  static void push(const OnlineMap& online, int64_t account, const ServerMessage& message,
                   Outbox& out);
  static ServerMessage update_of(const PendingChallenge& c, ChallengeUpdate::State state,
                                 bool incoming, std::string reason = {}, uint64_t match_id = 0);
  // The tick's parts, under the lock.
  void tick_challenges(const OnlineMap& online, int64_t now, Outbox& out);
  void tick_presence(const OnlineMap& online, const MatchList& every, Outbox& out);
  void tick_counts(const MatchList& every, size_t players, Outbox& out);
  void tick_tv(const MatchList& every, int64_t now, Outbox& out);
  // The followed accounts of `account` (read from the store once, then kept).
  std::vector<Followed>& follows_of(int64_t account);
  // Without the counts, so that it compares equal while no presence changed.
  FollowedList followed_list(int64_t account, const OnlineMap& online, const MatchList& every);
  // The featured match of `ruleset` now (and remembered as featured).
  TvFeature feature(const std::string& ruleset, const MatchList& every, int64_t now);
  double mean_rating(const MatchInfo& info);

  // Across a cluster (friends_cluster.cpp): presence written and read each tick, the channel
  // "friends" followed.
  void start_cluster();
  void swap_presence(const OnlineMap& online, size_t players);
  void on_note(const std::string& bytes);
  void broadcast(const FriendsNote& note);
  ClusterChallenge cluster_challenge(const PendingChallenge& c) const;
  static PendingChallenge pending_of(const ClusterChallenge& c);
  // Challenges across nodes (friends_cluster_challenges.cpp).
  Handled answer_remote(Call& call, const AnswerChallenge& request);
  void on_pending(const ClusterChallenge& c);
  void on_answer(const ChallengeAnswerNote& note);
  void on_closed(const ChallengeClosedNote& note);
  // Tells the other nodes a challenge of this node's book no longer waits (`code`: why an
  // answer made elsewhere was refused). Nothing on one node.
  void closed_here(const PendingChallenge& c, ChallengeUpdate::State state,
                   const std::string& reason, ResultCode code = OK);
  // Under the lock: remote challenges delivered to their targets here, forgotten when their
  // node stopped telling of them, answers waiting too long refused; this node's own told again.
  void tick_remote(const OnlineMap& online, int64_t now, Outbox& out);

  FriendsHost& host_;
  Clock now_ms_;
  std::mutex mutex_;
  ChallengeBook book_;
  std::map<int64_t, std::vector<Followed>> follows_;
  std::map<int64_t, std::string> presence_told_;  // per follower, the FollowedList last pushed
  std::optional<HallCounts> counts_;
  std::set<uint64_t> counts_told_;                 // lobby subscribers told the counts
  std::map<std::string, uint64_t> tv_current_;     // per ruleset, the featured match
  std::map<std::string, std::map<uint64_t, std::weak_ptr<Peer>>> tv_watchers_;
  std::map<uint64_t, int64_t> playing_since_;      // matches in play, first seen at
  std::map<uint64_t, double> ratings_;             // rated matches in play, their mean rating
  std::unique_ptr<boost::asio::steady_timer> timer_;

  // Cluster state, under mutex_.
  struct RemoteChallenge {
    ClusterChallenge challenge;
    int64_t told_ms = 0;    // when its node last told of it
    bool delivered = false;  // its target here has been told
  };
  // Under the lock: tells the target's connections here of a remote challenge, once.
  void deliver(RemoteChallenge& remote, const OnlineMap& online, Outbox& out);
  struct AwaitedAnswer {  // an acceptance sent to the challenger's node, its reply pending
    std::weak_ptr<Peer> peer;
    std::shared_ptr<Player> player;
    uint64_t request_id = 0;
    int64_t deadline_ms = 0;
  };
  std::map<std::string, NodePresence> remote_presence_;  // per other node
  std::map<uint64_t, RemoteChallenge> remote_challenges_;
  std::map<uint64_t, AwaitedAnswer> awaited_;  // by challenge id
  int64_t last_retold_ms_ = 0;
  // Held by the room: the cluster's callbacks, which may outlive it, look at it first.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace duelhall::server
