// The cluster's state in a real, throw-away redis-server: heartbeats and leases, adoption with
// rising epochs, the lobby channel across two connections, placement, ids, Redis down at start
// and lost while running.
#include <catch2/catch.hpp>
#include <mutex>

#include "cluster/cluster_node.hpp"
#include "cluster/placement.hpp"
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

TEST_CASE(
    "leases: a heartbeating owner keeps its match, a lapsed one's is adopted at a higher "
    "epoch and the old owner learns it lost it") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory a(link_to(loop, redis));
  ClusterDirectory b(link_to(loop, redis));
  const auto ttl = 300ms;
  using Lost = std::vector<uint64_t>;

  auto epoch = await<uint64_t>([&](auto done) { a.acquire("node-a", 7, ttl, done); });
  REQUIRE(epoch == 1u);
  // Another node cannot take a held lease.
  CHECK(await<uint64_t>([&](auto done) { b.acquire("node-b", 7, ttl, done); }) == 0u);
  // Heartbeats renew it past its lifetime: no orphan.
  for (int i = 0; i < 4; ++i) {
    CHECK(await<Lost>([&](auto done) { a.heartbeat(node_named("node-a"), ttl, done); }) == Lost{});
    CHECK(await<Lost>([&](auto done) { b.heartbeat(node_named("node-b"), ttl, done); }) == Lost{});
    std::this_thread::sleep_for(150ms);
  }
  CHECK(await<std::vector<Orphan>>([&](auto done) { b.orphans(done); })->empty());

  // node-a stops heartbeating: its node key and lease lapse, and node-b adopts the match.
  std::this_thread::sleep_for(ttl + 100ms);
  auto orphans = await<std::vector<Orphan>>([&](auto done) { b.orphans(done); });
  REQUIRE(orphans);
  REQUIRE(orphans->size() == 1);
  CHECK((*orphans)[0].match == 7);
  CHECK((*orphans)[0].owner == "node-a");
  auto adopted = await<uint64_t>([&](auto done) { b.adopt("node-b", (*orphans)[0], ttl, done); });
  REQUIRE(adopted == 2u);
  // Only one adopter wins.
  CHECK(await<uint64_t>([&](auto done) { a.adopt("node-c", (*orphans)[0], ttl, done); }) == 0u);
  auto lease = await<std::pair<uint64_t, std::string>>([&](auto done) { a.lease(7, done); });
  REQUIRE(lease);
  CHECK(lease->first == 2u);
  CHECK(lease->second == "node-b");

  // node-a comes back (it was only slow): its heartbeat says the match is no longer its own.
  CHECK(await<Lost>([&](auto done) { a.heartbeat(node_named("node-a"), ttl, done); }) == Lost{7});
  CHECK(await<Lost>([&](auto done) { a.heartbeat(node_named("node-a"), ttl, done); }) == Lost{});
  // node-b keeps it with its heartbeats; its release frees it.
  CHECK(await<Lost>([&](auto done) { b.heartbeat(node_named("node-b"), ttl, done); }) == Lost{});
  CHECK(await<bool>([&](auto done) { b.release("node-b", 7, done); }) == true);
  lease = await<std::pair<uint64_t, std::string>>([&](auto done) { a.lease(7, done); });
  CHECK(lease->second.empty());
  // A later acquisition moves the epoch on again: epochs never go back.
  CHECK(await<uint64_t>([&](auto done) { a.acquire("node-a", 7, ttl, done); }) == 3u);
}

TEST_CASE("leases: an owner whose lease lapsed while nobody adopted it takes it back unchanged") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory a(link_to(loop, redis));
  using Lost = std::vector<uint64_t>;
  REQUIRE(await<uint64_t>([&](auto done) { a.acquire("node-a", 9, 200ms, done); }) == 1u);
  std::this_thread::sleep_for(400ms);  // e.g. Redis was out of reach for a while
  CHECK(await<Lost>([&](auto done) { a.heartbeat(node_named("node-a"), 200ms, done); }) == Lost{});
  auto lease = await<std::pair<uint64_t, std::string>>([&](auto done) { a.lease(9, done); });
  CHECK(lease->first == 1u);
  CHECK(lease->second == "node-a");
}

TEST_CASE("lobby channel: a listing published on one connection reaches another's subscription") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory a(link_to(loop, redis));
  RedisLink::Options options;
  auto feed =
      std::make_shared<RedisLink>(loop.io(), RedisEndpoint{"127.0.0.1", redis.port()}, options);
  loop.track(feed);
  std::mutex mutex;
  std::vector<Listing> heard;
  feed->subscribe(a.lobby_channel(), [&](std::string message) {
    auto listing = decode_listing(message);
    if (!listing) return;
    std::lock_guard lock(mutex);
    heard.push_back(*listing);
  });
  feed->start();
  REQUIRE(eventually([&] { return feed->up(); }));
  std::this_thread::sleep_for(100ms);  // the SUBSCRIBE is on its way with the connection

  REQUIRE(await<bool>([&](auto done) { a.publish_listing({5, "node-a", "info-5", false}, done); }));
  REQUIRE(eventually([&] {
    std::lock_guard lock(mutex);
    return heard.size() == 1;
  }));
  {
    std::lock_guard lock(mutex);
    CHECK(heard[0].match == 5);
    CHECK(heard[0].node == "node-a");
    CHECK(heard[0].info == "info-5");
  }
  auto all = await<std::vector<Listing>>([&](auto done) { a.listings(done); });
  REQUIRE(all);
  REQUIRE(all->size() == 1);
  CHECK((*all)[0].info == "info-5");

  REQUIRE(await<bool>([&](auto done) { a.remove_listing(5, "node-a", done); }));
  REQUIRE(eventually([&] {
    std::lock_guard lock(mutex);
    return heard.size() == 2;
  }));
  {
    std::lock_guard lock(mutex);
    CHECK(heard[1].removed);
  }
  CHECK(await<std::vector<Listing>>([&](auto done) { a.listings(done); })->empty());
}

TEST_CASE("placement: the node table in Redis picks the least-loaded live node with room") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory d(link_to(loop, redis));
  using Lost = std::vector<uint64_t>;
  REQUIRE(await<Lost>([&](auto done) { d.heartbeat(node_named("node-a", 12, 88), 2s, done); }));
  REQUIRE(await<Lost>([&](auto done) { d.heartbeat(node_named("node-b", 4, 96), 2s, done); }));
  REQUIRE(await<Lost>([&](auto done) { d.heartbeat(node_named("node-c", 1, 0), 2s, done); }));
  REQUIRE(await<Lost>([&](auto done) { d.heartbeat(node_named("node-d", 0, 100), 200ms, done); }));
  std::this_thread::sleep_for(400ms);  // node-d's heartbeat lapses: it is not live
  auto nodes = await<std::vector<NodeInfo>>([&](auto done) { d.nodes(done); });
  REQUIRE(nodes);
  CHECK(nodes->size() == 3);
  auto chosen = least_loaded(*nodes);
  REQUIRE(chosen);
  CHECK(chosen->name == "node-b");
  CHECK(chosen->address == "ws://127.0.0.1/node-b");
}

TEST_CASE("match ids: blocks never overlap between nodes and start above the stores' ids") {
  RedisServer redis;
  TestLoop loop;
  ClusterDirectory d(link_to(loop, redis));
  std::string error;
  auto first =
      ClusterDirectory::reserve_ids_now({"127.0.0.1", redis.port()}, "duelhall:", 64, 1000, error);
  REQUIRE(first == 1064u);
  auto second = await<uint64_t>([&](auto done) { d.reserve_ids(64, 0, done); });
  CHECK(second == 1128u);
  // A floor below what was given out changes nothing.
  CHECK(await<uint64_t>([&](auto done) { d.reserve_ids(64, 10, done); }) == 1192u);
}

TEST_CASE("Redis down at start: a clear error naming the address") {
  const uint16_t port = duelhall::testing::free_loopback_port();
  const std::string error = probe_redis({"127.0.0.1", port}, 1s);
  CHECK(error.find("cannot reach Redis at 127.0.0.1:" + std::to_string(port)) != std::string::npos);
  std::string reserve_error;
  CHECK_FALSE(
      ClusterDirectory::reserve_ids_now({"127.0.0.1", port}, "duelhall:", 64, 0, reserve_error));
  CHECK(reserve_error.find("cannot reach Redis") != std::string::npos);
}

TEST_CASE(
    "Redis lost while running: the node turns not ready, gives no new ids, keeps its "
    "listings and comes back after Redis does") {
  RedisServer redis;
  TestLoop loop;
  ClusterOptions options;
  options.redis = {"127.0.0.1", redis.port()};
  options.node = "node-a";
  options.advertise = "ws://127.0.0.1:1/ws";
  options.secret = "a secret for the tests";
  options.heartbeat = 100ms;
  options.lease = 600ms;
  options.max_matches = 10;
  NodeHooks hooks;
  hooks.live_matches = [] { return 1u; };
  hooks.own_listings = [] { return std::vector<Listing>{{3, "", "info-3", false}}; };
  auto node = std::make_shared<ClusterNode>(loop.io(), options, hooks);
  std::string error;
  REQUIRE(node->bootstrap(0, error));
  node->start(1);
  REQUIRE(eventually([&] { return node->ready(); }));
  CHECK(node->take_match_id() == 1u);
  REQUIRE(eventually([&] { return node->placement().has_value(); }));
  CHECK(node->placement()->name == "node-a");
  CHECK(node->placement()->room == 9u);

  redis.stop();
  REQUIRE(eventually([&] { return !node->ready(); }, 3s));
  CHECK(node->take_match_id() == 0u);  // no new matches while the cluster cannot be reached

  redis.start();  // empty: it saved nothing
  REQUIRE(eventually([&] { return node->ready(); }, 10s));
  CHECK(node->take_match_id() == 2u);
  // It published its listing again, and took its match's lease again.
  ClusterDirectory d(link_to(loop, redis));
  REQUIRE(eventually([&] {
    auto all = await<std::vector<Listing>>([&](auto done) { d.listings(done); });
    return all && all->size() == 1 && (*all)[0].node == "node-a";
  }));
  auto lease = await<std::pair<uint64_t, std::string>>([&](auto done) { d.lease(3, done); });
  CHECK(lease->second == "node-a");
  node->stop();
}

TEST_CASE("match ids: a node taking ids faster than a block a heartbeat never runs dry") {
  RedisServer redis;
  TestLoop loop;
  ClusterOptions options;
  options.redis = {"127.0.0.1", redis.port()};
  options.node = "node-a";
  options.advertise = "ws://127.0.0.1:1/ws";
  options.secret = "a secret for the tests";
  options.heartbeat = 10s;  // no heartbeat refills the ids during the test
  options.max_matches = 10'000;
  auto node = std::make_shared<ClusterNode>(loop.io(), options, NodeHooks{});
  std::string error;
  REQUIRE(node->bootstrap(0, error));
  node->start(1);
  // Ready at the first heartbeat that Redis answers (the second, if the links were not up yet).
  REQUIRE(eventually([&] { return node->ready(); }, 15s));
  // 3,000 ids, one every 0.2 ms: several blocks, in well under a heartbeat.
  uint64_t previous = 0;
  int dry = 0;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t id = node->take_match_id();
    if (id == 0) {
      ++dry;
    } else {
      CHECK(id > previous);
      previous = id;
    }
    std::this_thread::sleep_for(200us);
  }
  CHECK(dry == 0);
  node->stop();
}

TEST_CASE("match ids: a burst of 2,000 creations while Redis does not answer never runs dry") {
  RedisServer redis;
  TestLoop loop;
  ClusterOptions options;
  options.redis = {"127.0.0.1", redis.port()};
  options.node = "node-a";
  options.advertise = "ws://127.0.0.1:1/ws";
  options.secret = "a secret for the tests";
  options.heartbeat = 10s;  // still ready while Redis is paused: no heartbeat in between
  options.max_matches = 10'000;
  auto node = std::make_shared<ClusterNode>(loop.io(), options, NodeHooks{});
  std::string error;
  REQUIRE(node->bootstrap(0, error));
  node->start(1);
  REQUIRE(eventually([&] { return node->ready(); }, 15s));
  // Paused, Redis answers no refill (as when the refill waits behind a queue of leases and
  // listings on a loaded machine): the ids in hand must carry the burst.
  REQUIRE(::kill(redis.pid(), SIGSTOP) == 0);
  int dry = 0;
  for (int i = 0; i < 2000; ++i) dry += node->take_match_id() == 0;
  ::kill(redis.pid(), SIGCONT);
  CHECK(dry == 0);
  node->stop();
}

TEST_CASE(
    "locate: a match leased by a node that joined since this node's last heartbeat is found "
    "on it, not taken for unknown") {
  RedisServer redis;
  TestLoop loop;
  ClusterOptions options;
  options.redis = {"127.0.0.1", redis.port()};
  options.node = "node-b";
  options.advertise = "ws://127.0.0.1:1/ws";
  options.secret = "a secret for the tests";
  options.heartbeat = 10s;  // its node table is read once, before node-a exists
  auto node = std::make_shared<ClusterNode>(loop.io(), options, NodeHooks{});
  std::string error;
  REQUIRE(node->bootstrap(0, error));
  node->start(1);
  REQUIRE(eventually([&] { return node->ready(); }, 15s));
  REQUIRE_FALSE(node->node("node-a").has_value());

  // node-a joins (a node of a cluster whose nodes all start at once) and creates match 7.
  ClusterDirectory a(link_to(loop, redis));
  REQUIRE(await<std::vector<uint64_t>>(
      [&](auto done) { a.heartbeat(node_named("node-a"), 5s, done); }));
  REQUIRE(await<uint64_t>([&](auto done) { a.acquire("node-a", 7, 5s, done); }) == 1u);

  auto found = await<NodeInfo>([&](auto done) { node->locate(7, done); });
  REQUIRE(found.has_value());
  CHECK(found->name == "node-a");
  CHECK(found->address == "ws://127.0.0.1/node-a");
  node->stop();
}
