// What the Redis-level cluster tests share: a link to the throw-away redis-server that is up
// before the test goes on, and a node's table entry by name.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "cluster/cluster_node.hpp"
#include "redis_server.hpp"
#include "test_loop.hpp"

namespace duelhall::testing {

inline std::shared_ptr<cluster::RedisLink> link_to(TestLoop& loop, const RedisServer& redis) {
  cluster::RedisLink::Options options;
  options.name = "test";
  auto link = std::make_shared<cluster::RedisLink>(
      loop.io(), cluster::RedisEndpoint{"127.0.0.1", redis.port()}, options);
  loop.track(link);
  link->start();
  REQUIRE(eventually([&] { return link->up(); }));
  return link;
}

inline cluster::NodeInfo node_named(const std::string& name, uint32_t matches = 0,
                                    uint32_t room = 100) {
  return {name, "ws://127.0.0.1/" + name, matches, room};
}

}  // namespace duelhall::testing
