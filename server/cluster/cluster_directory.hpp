// The cluster's live state in Redis, as asynchronous calls over a RedisLink: nodes and their
// heartbeats, match ownership leases with a per-match epoch, the lobby's listings and their
// pub/sub channel, cluster-wide match ids. Each call's handler runs on the link's strand and
// gets nullopt when Redis could not be asked (no connection, an error reply, a late reply).
// The key layout and the lease rules are in cluster_scripts.cpp and docs/cluster.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/redis_link.hpp"

namespace duelhall::cluster {

struct NodeInfo {
  std::string name;
  std::string address;   // where clients reach it: ws://host:port/ws
  uint32_t matches = 0;  // live matches
  uint32_t room = 0;     // matches it may still take
  // How long ago its last heartbeat was written, by Redis's clock, when the table was read.
  int64_t heartbeat_age_ms = 0;
};

// A match whose owner stopped heartbeating and whose lease lapsed.
struct Orphan {
  uint64_t match = 0;
  std::string owner;
  // Its node marked it ended (it stays listed for a while): the adopter reads the store before
  // it claims it, and leaves it unless its end was not stored after all.
  bool ended = false;
};

// One match in the cluster's lobby: the node that hosts it and its listing (opaque bytes: the
// lobby's serialized MatchInfo).
struct Listing {
  uint64_t match = 0;
  std::string node;
  std::string info;
  bool removed = false;
};
// The lobby channel's messages: "L <match> <node>\n<info>" or "R <match> <node>\n".
std::string encode_listing(const Listing& listing);
std::optional<Listing> decode_listing(std::string_view message);

// Node names: 1 to 63 of a-z, A-Z, 0-9, '.', '_', '-' (they are parts of Redis keys).
bool valid_node_name(std::string_view name);

template <typename T>
using Answer = std::function<void(std::optional<T>)>;

class ClusterDirectory {
 public:
  explicit ClusterDirectory(std::shared_ptr<RedisLink> link, std::string prefix = "duelhall:");

  const std::string& prefix() const { return prefix_; }
  std::string lobby_channel() const { return lobby_channel_of(prefix_); }
  static std::string lobby_channel_of(const std::string& prefix) { return prefix + "lobby"; }

  // Writes `self`'s heartbeat (expiring after `ttl`) and renews its leases; answers the matches
  // it has lost to an adopter.
  void heartbeat(const NodeInfo& self, std::chrono::milliseconds ttl,
                 Answer<std::vector<uint64_t>> done);
  // The lease of a new match: its epoch, or 0 when another node holds it.
  void acquire(const std::string& node, uint64_t match, std::chrono::milliseconds ttl,
               Answer<uint64_t> done);
  void orphans(Answer<std::vector<Orphan>> done);
  // Takes an orphan's lapsed lease: the new (higher) epoch, or 0 when someone holds it now.
  void adopt(const std::string& node, const Orphan& orphan, std::chrono::milliseconds ttl,
             Answer<uint64_t> done);
  void release(const std::string& node, uint64_t match, Answer<bool> done);
  // The node's match ended: should the node die while it is still listed, the orphan says so.
  void match_ended(const std::string& node, uint64_t match, Answer<bool> done);
  // The match's current epoch (0: never leased) and lease holder (empty: lapsed).
  void lease(uint64_t match, Answer<std::pair<uint64_t, std::string>> done);
  void nodes(Answer<std::vector<NodeInfo>> done);

  void publish_listing(const Listing& listing, Answer<bool> done);
  void remove_listing(uint64_t match, const std::string& node, Answer<bool> done);
  void listings(Answer<std::vector<Listing>> done);

  // Reserves `count` ids above every id given out so far and above `floor`: the block's last.
  void reserve_ids(uint64_t count, uint64_t floor, Answer<uint64_t> done);
  // The same, blocking, on a connection of its own: the start-up's first block, which doubles
  // as the check that Redis answers. nullopt with `error` when it does not.
  static std::optional<uint64_t> reserve_ids_now(const RedisEndpoint& endpoint,
                                                 const std::string& prefix, uint64_t count,
                                                 uint64_t floor, std::string& error);
  // acquire(), blocking, on a connection of its own (a recovery at start, before the node runs).
  static std::optional<uint64_t> acquire_now(const RedisEndpoint& endpoint,
                                             const std::string& prefix, const std::string& node,
                                             uint64_t match, std::chrono::milliseconds ttl,
                                             std::string& error);
  // At a node's start, after its recovery: gives up every match a past run of `node` owned that
  // this run does not host (kReleaseUnhosted). How many; nullopt with `error` when Redis does not
  // answer.
  static std::optional<uint64_t> release_unhosted_now(const RedisEndpoint& endpoint,
                                                      const std::string& prefix,
                                                      const std::string& node,
                                                      const std::vector<uint64_t>& hosted,
                                                      std::string& error);

  // Runs a script with the prefix as ARGV[1] and `args` after it (an error reply: nullopt).
  void eval(const char* script, std::vector<std::string> args, ReplyHandler done);

 private:

  std::shared_ptr<RedisLink> link_;
  std::string prefix_;
};

}  // namespace duelhall::cluster
