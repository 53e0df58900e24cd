// How a node shares the cluster's work out, against a real, throw-away redis-server with nodes
// played by ClusterNode objects and by bare directories: stale news of an adoption, nodes that
// stopped heartbeating, bursts of creations between two heartbeats, the orphans of a dead node
// among the survivors, and a dead node's ended matches (docs/cluster.md).
#include <catch2/catch.hpp>

#include <map>
#include <mutex>

#include "cluster/cluster_node.hpp"
#include "redis_link_helpers.hpp"
#include "redis_server.hpp"
#include "test_loop.hpp"

using namespace duelhall::cluster;
using duelhall::testing::await;
using duelhall::testing::eventually;
using duelhall::testing::link_to;
using duelhall::testing::node_named;
using duelhall::testing::RedisServer;
using duelhall::testing::TestLoop;
using namespace std::chrono_literals;
using Lost = std::vector<uint64_t>;

namespace {

ClusterOptions options_for(const RedisServer& redis, const std::string& name) {
  ClusterOptions options;
  options.redis = {"127.0.0.1", redis.port()};
  options.node = name;
  options.advertise = "ws://127.0.0.1/" + name;
  options.secret = "a secret for the tests";
  options.heartbeat = 100ms;
  options.lease = 1000ms;
  options.max_matches = 1000;
  return options;
}

// A ClusterNode that counts the matches it adopts.
struct CountingNode {
  std::shared_ptr<ClusterNode> node;
  std::mutex mutex;
  std::vector<uint64_t> adopted;

  CountingNode(TestLoop& loop, const RedisServer& redis, const std::string& name,
               uint32_t live = 0) {
    NodeHooks hooks;
    hooks.live_matches = [live] { return live; };
    hooks.adopted = [this](const Orphan& orphan, uint64_t) {
      std::lock_guard lock(mutex);
      adopted.push_back(orphan.match);
      return true;
    };
    node = std::make_shared<ClusterNode>(loop.io(), options_for(redis, name), hooks);
    std::string error;
    REQUIRE(node->bootstrap(0, error));
    node->start(1);
  }
  ~CountingNode() { node->stop(); }
  size_t count() {
    std::lock_guard lock(mutex);
    return adopted.size();
  }
};

}  // namespace

TEST_CASE(
    "lost news: a node that owns a match again at its current epoch is not told it lost it, and "
    "renews its lease") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory a(link_to(loop, redis));
  ClusterDirectory b(link_to(loop, redis));
  const auto ttl = 300ms;
  REQUIRE(await<uint64_t>([&](auto done) { a.acquire("node-a", 7, ttl, done); }) == 1u);
  // node-a dies; node-b adopts the match, cannot serve it and releases it (the old adopter's
  // give-up); node-a restarts and takes the match back at a new epoch.
  std::this_thread::sleep_for(ttl + 100ms);
  REQUIRE(await<uint64_t>([&](auto done) { b.adopt("node-b", {7, "node-a"}, ttl, done); }) == 2u);
  REQUIRE(await<bool>([&](auto done) { b.release("node-b", 7, done); }) == true);
  REQUIRE(await<uint64_t>([&](auto done) { a.acquire("node-a", 7, ttl, done); }) == 3u);
  // The adoption's news is stale: node-a owns the match at its current epoch.
  CHECK(await<Lost>([&](auto done) { a.heartbeat(node_named("node-a"), ttl, done); }) == Lost{});
  std::this_thread::sleep_for(ttl + 100ms);
  CHECK(await<Lost>([&](auto done) { a.heartbeat(node_named("node-a"), ttl, done); }) == Lost{});
  auto lease = await<std::pair<uint64_t, std::string>>([&](auto done) { b.lease(7, done); });
  REQUIRE(lease.has_value());
  CHECK(lease->first == 3u);
  CHECK(lease->second == "node-a");
}

TEST_CASE(
    "placement: a node whose heartbeat stopped is not chosen, though its key has not expired "
    "yet") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory ghost(link_to(loop, redis));
  // The ghost heartbeats once with a long key life, empty: the least loaded by far.
  REQUIRE(await<Lost>([&](auto done) { ghost.heartbeat(node_named("ghost", 0), 30s, done); }));
  CountingNode b(loop, redis, "node-b", 50);
  REQUIRE(eventually([&] { return b.node->ready() && b.node->node("ghost").has_value(); }));
  CHECK(b.node->seen_recently("ghost"));
  CHECK(b.node->placement()->name == "ghost");
  // Past the staleness window (well inside the ghost's key life), it is no longer offered.
  REQUIRE(eventually([&] { return !b.node->seen_recently("ghost"); }, 5s));
  CHECK(b.node->node("ghost").has_value());  // its key is still there
  auto chosen = b.node->placement();
  REQUIRE(chosen.has_value());
  CHECK(chosen->name == "node-b");
}

TEST_CASE("placement: a burst of creations between two heartbeats spreads over the nodes") {
  RedisServer redis;
  TestLoop loop;
  NodeHooks hooks;
  hooks.live_matches = [] { return 0u; };
  ClusterOptions options = options_for(redis, "node-a");
  options.heartbeat = 10s;  // one node table for the whole burst
  options.lease = 30s;
  auto a = std::make_shared<ClusterNode>(loop.io(), options, hooks);
  ClusterDirectory b(link_to(loop, redis));
  ClusterDirectory c(link_to(loop, redis));
  REQUIRE(await<Lost>([&](auto done) { b.heartbeat(node_named("node-b", 0), 30s, done); }));
  REQUIRE(await<Lost>([&](auto done) { c.heartbeat(node_named("node-c", 0), 30s, done); }));
  std::string error;
  REQUIRE(a->bootstrap(0, error));
  a->start(1);
  REQUIRE(eventually([&] { return a->ready() && a->nodes().size() == 3; }, 15s));
  std::map<std::string, int> placed;
  for (int i = 0; i < 30; ++i) {
    auto chosen = a->place();
    REQUIRE(chosen.has_value());
    ++placed[chosen->name];
  }
  CHECK(placed["node-a"] == 10);
  CHECK(placed["node-b"] == 10);
  CHECK(placed["node-c"] == 10);
  a->stop();
}

TEST_CASE("orphans: the matches of a dead node are spread over the survivors by their load") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory dead(link_to(loop, redis));
  // Long enough for both survivors to have each other in their node tables when it lapses.
  const auto ttl = 2000ms;
  REQUIRE(await<Lost>([&](auto done) { dead.heartbeat(node_named("node-a"), ttl, done); }));
  for (uint64_t m = 1; m <= 12; ++m) {
    REQUIRE(await<uint64_t>([&](auto done) { dead.acquire("node-a", m, ttl, done); }) == 1u);
  }
  // node-b already hosts 4 matches, node-c none: node-c should take 8 of the 12, node-b 4.
  CountingNode b(loop, redis, "node-b", 4);
  CountingNode c(loop, redis, "node-c", 0);
  REQUIRE(eventually([&] { return b.count() + c.count() == 12; }, 10s));
  std::this_thread::sleep_for(500ms);
  CHECK(b.count() + c.count() == 12);
  CHECK(b.count() == 4);
  CHECK(c.count() == 8);
}

TEST_CASE(
    "orphans: a dead node's ended match, still listed, is told to its adopter as ended, and a "
    "live one as live") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory dead(link_to(loop, redis));
  const auto ttl = 500ms;
  REQUIRE(await<Lost>([&](auto done) { dead.heartbeat(node_named("node-a"), ttl, done); }));
  REQUIRE(await<uint64_t>([&](auto done) { dead.acquire("node-a", 5, ttl, done); }) == 1u);
  REQUIRE(await<uint64_t>([&](auto done) { dead.acquire("node-a", 6, ttl, done); }) == 1u);
  REQUIRE(await<bool>([&](auto done) { dead.match_ended("node-a", 5, done); }) == true);
  std::mutex mutex;
  std::map<uint64_t, bool> told;  // match -> ended
  NodeHooks hooks;
  hooks.live_matches = [] { return 0u; };
  hooks.adopted = [&](const Orphan& orphan, uint64_t) {
    std::lock_guard lock(mutex);
    told[orphan.match] = orphan.ended;
    return true;
  };
  auto b = std::make_shared<ClusterNode>(loop.io(), options_for(redis, "node-b"), hooks);
  std::string error;
  REQUIRE(b->bootstrap(0, error));
  b->start(1);
  REQUIRE(eventually(
      [&] {
        std::lock_guard lock(mutex);
        return told.size() == 2;
      },
      10s));
  b->stop();
  std::lock_guard lock(mutex);
  CHECK(told[5] == true);
  CHECK(told[6] == false);
}
