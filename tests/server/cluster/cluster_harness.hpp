// What the cluster's failover tests share: nodes of the real binary on one throw-away Redis and
// one throw-away PostgreSQL database (tests/support/throwaway_postgres.hpp, run as the
// `postgres` user when the tests run as root), and the steps every such test takes.
#pragma once

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "../integration/helpers.hpp"
#include "redirect.hpp"
#include "redis_server.hpp"
#include "support/throwaway_postgres.hpp"

namespace duelhall::testing {

inline const std::string kClusterSecret = "the shared secret of the test cluster";

// A node of the cluster on `database`: its matches, accounts and sessions are every node's.
// `grace`: how long a player's seat waits for its reconnect (--grace, seconds).
inline std::vector<std::string> pg_node_args(const RedisServer& redis, const std::string& name,
                                             const std::string& database,
                                             const std::string& grace = "60") {
  return {"--cluster",    redis.url(),  "--node-name", name,      "--cluster-secret",
          kClusterSecret, "--database", database,      "--grace", grace};
}

inline bool node_ready(const ServerProcess& server) {
  try {
    return http_get(server.port(), "/readyz").status == 200;
  } catch (const std::exception&) {
    return false;
  }
}

inline void wait_node_ready(const ServerProcess& server) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!node_ready(server) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(node_ready(server));
}

// Creates a match through the node on `port`, following the placement's redirect by hand so
// that the resume token is the one of the connection the match is on. `token` and `node` get
// that token and the node that hosts the match.
inline ServerMessage create_in_cluster(std::unique_ptr<WsClient>& client, uint16_t port,
                                       const std::string& name, const ClientMessage& create,
                                       std::string& token) {
  client = std::make_unique<WsClient>();
  client->connect("127.0.0.1", port);
  ServerMessage welcome = client->hello(name);
  REQUIRE(welcome.result() == OK);
  token = welcome.welcome().resume_token();
  ServerMessage reply = client->request(create);
  if (reply.result() != REDIRECT) return reply;
  auto address = client::parse_ws_address(reply.redirect().address());
  REQUIRE(address.has_value());
  client->close();
  client = std::make_unique<WsClient>();
  client->connect(address->host, address->port, address->path);
  welcome = client->hello(name);
  REQUIRE(welcome.result() == OK);
  token = welcome.welcome().resume_token();
  ClientMessage again = create;
  again.set_ticket(reply.redirect().ticket());
  return client->request(again);
}

}  // namespace duelhall::testing
