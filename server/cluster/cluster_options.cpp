#include "cluster/cluster_options.hpp"

#include <unistd.h>
#include <cstdlib>

#include "cluster/cluster_directory.hpp"

namespace duelhall::cluster {

bool cluster_options_from(const server::Config& config, ClusterOptions& out, std::string& error) {
  error.clear();
  if (config.cluster.empty()) return false;
  if (!parse_redis_url(config.cluster, out.redis, error)) return false;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  out.node = config.node_name.empty() ? std::string(host) : config.node_name;
  if (!valid_node_name(out.node)) {
    error = "a node name (--node-name) is 1 to 63 of a-z, A-Z, 0-9, '.', '_', '-', not '" +
            out.node + "'";
    return false;
  }
  // A node bound to one address is reached there; one bound to all, by its host name.
  const bool bound_to_all = config.bind == "0.0.0.0" || config.bind == "::";
  const std::string reach = bound_to_all                                 ? std::string(host)
                            : config.bind.find(':') != std::string::npos ? "[" + config.bind + "]"
                                                                         : config.bind;
  out.advertise = config.advertise_address.empty()
                      ? "ws://" + reach + ":" + std::to_string(config.port) + "/ws"
                      : config.advertise_address;
  out.advertise_host = config.advertise_address.empty() ? reach : std::string();
  if (out.advertise.rfind("ws://", 0) != 0 && out.advertise.rfind("wss://", 0) != 0) {
    error =
        "--advertise-address is the node's WebSocket URL (ws://HOST:PORT/ws or wss://...), "
        "not '" +
        out.advertise + "'";
    return false;
  }
  out.secret = config.cluster_secret;
  if (out.secret.empty()) {
    if (const char* env = std::getenv("DUELHALL_CLUSTER_SECRET")) out.secret = env;
  }
  if (out.secret.size() < 16) {
    error =
        "a cluster needs a shared secret of at least 16 characters (--cluster-secret or "
        "DUELHALL_CLUSTER_SECRET): it signs the tickets that send clients between nodes";
    return false;
  }
  // The placeholders deploy/ ships are public: a cluster started with one signs tickets anyone
  // can forge.
  for (const char* example :
       {"change-this-secret-before-going-public", "replace-with-a-long-random-secret"}) {
    if (out.secret == example) {
      error = "the cluster secret is the example from deploy/ ('" + out.secret +
              "'), which anyone can read: set DUELHALL_CLUSTER_SECRET (or --cluster-secret) to a "
              "long random one, e.g. $(openssl rand -hex 32)";
      return false;
    }
  }
  out.max_matches = config.limits.max_matches;
  out.place_locally = config.placement == "local";
  return true;
}

}  // namespace duelhall::cluster
