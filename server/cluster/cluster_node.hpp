// A node of the cluster, running: it heartbeats every `heartbeat` (its address and load, which
// renews its matches' leases), keeps the table of live nodes for placement, adopts the matches of
// nodes whose heartbeat lapsed, gives out cluster-wide match ids from blocks it reserves ahead,
// publishes its listings and follows the other nodes' on the lobby channel, and signs and checks
// tickets. It is ready (/readyz) while Redis answers its heartbeats; when Redis goes it reports
// not ready, takes no new matches (no ids), keeps its live matches playing and reconnects with
// back-off. The lobby reaches it through the hooks and the calls below; every hook runs on a
// Redis link's strand and must not block.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster_directory.hpp"
#include "cluster/cluster_options.hpp"
#include "cluster/ticket.hpp"

namespace duelhall::cluster {

using Clock = std::chrono::steady_clock;

struct NodeHooks {
  std::function<uint32_t()> live_matches;
  // False while the node takes no new matches (a drain): it then offers no room.
  std::function<bool()> taking_matches;
  // Another node's listing appeared, changed or went.
  std::function<void(const Listing&)> listing_changed;
  // Every listing of the cluster, after the lobby feed (re)connected: replaces what was known.
  std::function<void(std::vector<Listing>)> listings_reloaded;
  // This node's own listings, published again after Redis came back.
  std::function<std::vector<Listing>()> own_listings;
  // Another node adopted this match (its epoch moved on): stop serving it.
  std::function<void(uint64_t match)> lease_lost;
  // This node acquired the match's lease (match_opened) under `epoch`: its writes carry it.
  std::function<void(uint64_t match, uint64_t epoch)> lease_acquired;
  // This node won an orphan's lease under `epoch`: rebuild the match from the shared log. False
  // when it cannot (the lease is released and the listing dropped).
  std::function<bool(const Orphan& orphan, uint64_t epoch)> adopted;
};

class ClusterNode : public std::enable_shared_from_this<ClusterNode> {
 public:
  ClusterNode(boost::asio::io_context& io, ClusterOptions options, NodeHooks hooks);

  // Blocking, before the server listens: reserves the first block of match ids above `id_floor`
  // (the highest id the node's store knows). False with the reason when Redis does not answer.
  bool bootstrap(uint64_t id_floor, std::string& error);
  // Blocking, at start before the node serves: acquires the lease of a match the node's store
  // holds unfinished (a recovery). Its epoch; 0 when another node holds it; nullopt with
  // `error` when Redis does not answer.
  std::optional<uint64_t> acquire_now(uint64_t match, std::string& error);
  // After the recovery at start: the leases and listings a past run of this node left for
  // matches this run does not host are given up (a match created and leased, then lost with the
  // node before its store had it, would otherwise stay listed and leased for ever). How many;
  // nullopt with `error` when Redis does not answer.
  std::optional<uint64_t> release_unhosted_now(const std::vector<uint64_t>& hosted,
                                               std::string& error);
  // `port`: the port the node listens on, for a default advertised address.
  void start(uint16_t port);
  void stop();

  const ClusterOptions& options() const { return options_; }
  bool ready() const { return ready_; }
  // Where a match created through this node goes: this node itself with --placement local while
  // it has room, else the least-loaded node with room (maybe this one) among those seen alive
  // recently, from the last heartbeat's table and the placements made since it was read.
  std::optional<NodeInfo> placement() const;
  // placement(), counted: the node chosen is one match fuller until the next table, so that a
  // burst of creations between two heartbeats spreads over the nodes.
  std::optional<NodeInfo> place();
  std::optional<NodeInfo> node(const std::string& name) const;
  std::vector<NodeInfo> nodes() const;
  // Whether the node heartbeat recently, well inside the lease (this node: always): only such a
  // node is given matches or has clients sent to it. A node that died stops being one within
  // stale_after(), seconds before its lease lapses and its matches can be adopted.
  bool seen_recently(const std::string& name) const;
  std::chrono::milliseconds stale_after() const;

  // A cluster-wide match id, or 0 when none is reserved (Redis is unreachable).
  uint64_t take_match_id();
  // A match of this node opened (its lease is acquired: lease_acquired tells the epoch) or ended
  // (released). `answered`, when given, runs once Redis has answered the acquisition (whether
  // the lease is this node's or not) or cannot: a creation is answered only then.
  void match_opened(uint64_t match, std::function<void()> answered = nullptr);
  void match_closed(uint64_t match);
  // A match of this node ended; it stays listed for a while. Should the node die meanwhile, its
  // adopter checks the store before it claims it, and leaves it when its end is stored.
  void match_ended(uint64_t match);
  void publish(uint64_t match, std::string info);
  void unpublish(uint64_t match);
  // The node that holds the match's lease, nullopt when none does (or Redis cannot say).
  void locate(uint64_t match, std::function<void(std::optional<NodeInfo>)> done);

  // A ticket for `holder` (holder_key()) to bring to `node`.
  std::string ticket(uint64_t match, TicketRole role, int seat, const std::string& node,
                     const std::string& holder) const;
  // As TicketSigner::check, then: kTooLong for an expiry further ahead than twice the ticket
  // life (only a forger with the secret writes one), kWrongHolder when `holder` is not the key the
  // ticket was issued to.
  TicketCheck check_ticket(const std::string& bytes, uint64_t match, TicketRole role,
                           const std::string& holder, Ticket* out = nullptr) const;
  // Whom a ticket is for: the account (a signed-in or guest identity, the same on every node),
  // else the display name; a resume ticket is for the resume token.
  static std::string holder_key(int64_t account, const std::string& name);
  static std::string resume_holder_key(const std::string& resume_token);

  // A channel of the cluster beside the lobby's (the prefix + `name`, e.g. "moderation"), on the
  // lobby feed's connection: `on_message` gets what other nodes broadcast on it (this node's own
  // messages are not echoed back; each is sealed with the cluster secret and its time, and one
  // that is not, or is over a minute off, is dropped), `on_resync` runs each time the feed
  // (re)connects, since pub/sub drops what is published while a subscriber is away. Both run on the
  // feed's strand and must not block. Call before start().
  void follow(const std::string& name, std::function<void(std::string)> on_message,
              std::function<void()> on_resync);
  // Publishes `message` on the channel `name` to every other node that follows it; lost when
  // Redis cannot be reached (followers resync when their feed comes back).
  void broadcast(const std::string& name, const std::string& message);

  ClusterDirectory& directory() { return directory_; }

 private:
  void tick();
  void after_heartbeat(std::optional<std::vector<uint64_t>> lost);
  void adopt_orphans(std::vector<Orphan> orphans);
  // The orphans this node adopts now: those the spread by load gives it, and any left unadopted
  // for two heartbeats (its survivor disagreed or died meanwhile).
  std::vector<Orphan> my_share(const std::vector<Orphan>& orphans);
  void adopt(const Orphan& orphan);
  void set_nodes(std::vector<NodeInfo> nodes);  // under mutex_
  std::vector<NodeInfo> recent_nodes() const;   // under mutex_
  void refill_ids();
  void set_ready(bool ready);
  void republish();
  // Takes the match's lease; lease_acquired, then `then`, once it is this node's; `answered`
  // after either, whatever the outcome.
  void acquire(uint64_t match, std::function<void()> then,
               std::function<void()> answered = nullptr);

  ClusterOptions options_;  // const once started
  const NodeHooks hooks_;
  const TicketSigner signer_;
  std::shared_ptr<RedisLink> commands_;
  std::shared_ptr<RedisLink> feed_;
  ClusterDirectory directory_;
  boost::asio::steady_timer timer_;
  std::atomic<bool> ready_{false};
  std::atomic<bool> stopped_{false};
  // On the commands link's strand. True at first, so that the listings of the matches recovered
  // at start (published before the link was up, so lost) are published once it is.
  bool commands_were_down_ = true;

  struct Channel {
    std::string name;
    std::function<void(std::string)> on_message;
    std::function<void()> on_resync;
  };
  std::vector<Channel> channels_;  // set before start(), read-only after

  mutable std::mutex mutex_;
  std::vector<NodeInfo> nodes_;
  Clock::time_point nodes_read_at_{};
  std::map<std::string, uint32_t> placed_since_read_;  // node -> placed since the table
  std::map<uint64_t, Clock::time_point> orphans_seen_;  // match -> first seen an orphan
  std::deque<std::pair<uint64_t, uint64_t>> id_blocks_;  // [first, last]
  bool refilling_ = false;
  std::chrono::steady_clock::time_point last_heartbeat_{};
};

}  // namespace duelhall::cluster
