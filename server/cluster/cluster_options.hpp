// The cluster settings of a node, checked: from the server's Config (--cluster, --node-name,
// --advertise-address, --cluster-secret) and the environment.
#pragma once

#include <chrono>
#include <string>

#include "cluster/redis_link.hpp"
#include "config/config.hpp"

namespace duelhall::cluster {

struct ClusterOptions {
  RedisEndpoint redis;
  std::string node;       // this node's name, unique in the cluster
  std::string advertise;  // where clients reach this node: ws://host:port/ws
  // Set when the address is the default: the host it names, for ClusterNode::start to name the
  // port the node really listens on (--port 0 picks one).
  std::string advertise_host;
  std::string secret;  // the ticket key's secret, the same on every node
  std::string prefix = "duelhall:";
  std::chrono::milliseconds heartbeat{1000};  // how often the node heartbeats
  std::chrono::milliseconds lease{5000};      // a heartbeat's and a lease's lifetime
  std::chrono::milliseconds ticket_life{30'000};
  uint32_t max_matches = 0;  // the node's room is this less its live matches
  // A match created through this node stays here while it has room (--placement local) rather
  // than going to the least-loaded node.
  bool place_locally = false;
};

// Empty `config.cluster`: false with no error (no cluster). Otherwise true with `out` filled,
// or false with `error`. The secret may come from DUELHALL_CLUSTER_SECRET instead of the config
// (a flag shows in the process list); the node name defaults to the host name and the advertised
// address to ws://<bind address>:<port>/ws (the host name when bound to every address).
bool cluster_options_from(const server::Config& config, ClusterOptions& out, std::string& error);

}  // namespace duelhall::cluster
