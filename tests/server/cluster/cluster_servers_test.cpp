// Real duelhall processes sharing one throw-away Redis: one lobby across nodes, placement and
// redirects with tickets, readiness when Redis goes and comes back, a clear error when it is
// not there at start.
#include <catch2/catch.hpp>

#include "../integration/helpers.hpp"
#include "redirect.hpp"
#include "redis_server.hpp"

using namespace duelhall;
using namespace duelhall::testing;
using client::request_following_redirects;

namespace {

const std::string kSecret = "the shared secret of the test cluster";

std::vector<std::string> node_args(const RedisServer& redis, const std::string& name) {
  return {"--cluster",        redis.url(), "--node-name", name,
          "--cluster-secret", kSecret,     "--storage",   "memory"};
}

bool ready(const ServerProcess& server) {
  try {
    return http_get(server.port(), "/readyz").status == 200;
  } catch (const std::exception&) {
    return false;
  }
}

// Waits until `server` is ready and its node table has `nodes` nodes (heartbeats are 1 s apart).
void wait_ready(const ServerProcess& server) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!ready(server) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(ready(server));
}

const MatchInfo* listed(const ServerMessage& list, uint64_t id) {
  for (const auto& m : list.matches().matches()) {
    if (m.match_id() == id) return &m;
  }
  return nullptr;
}

ClientMessage list_matches() {
  ClientMessage m;
  m.mutable_list_matches();
  return m;
}

}  // namespace

TEST_CASE(
    "two nodes on one Redis: a match created through A is listed on B with its node, and "
    "joined through B by a redirect with a ticket") {
  RedisServer redis;
  ServerProcess a(node_args(redis, "node-a"));
  ServerProcess b(node_args(redis, "node-b"));
  wait_ready(a);
  wait_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // both see both nodes

  auto watcher = connect_as(b.port(), "Watcher");
  ClientMessage subscribe;
  subscribe.mutable_subscribe_lobby()->set_subscribe(true);
  REQUIRE(watcher->request(subscribe).result() == OK);

  // Both nodes are empty: the tie goes to node-a's name, so A creates it itself.
  auto host = connect_as(a.port(), "Host");
  ServerMessage created = host->request(create_match("force_battles", 2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  CHECK(created.created().match().node() == "node-a");

  // B lists it, with its node, and told its lobby subscriber.
  auto browser = connect_as(b.port(), "Browser");
  REQUIRE(browser->wait_until([&] {
    ServerMessage list = browser->request(list_matches());
    const MatchInfo* m = listed(list, id);
    return m && m->node() == "node-a";
  }));
  REQUIRE(watcher->wait_until([&] {
    for (const auto& pushed : watcher->pushed()) {
      if (pushed.has_lobby_update() && pushed.lobby_update().match().match_id() == id) return true;
    }
    return false;
  }));

  // Joining through B: B answers REDIRECT with node-a's address and a ticket.
  auto joiner = connect_as(b.port(), "Joiner");
  ServerMessage redirect = joiner->request(join_match(id, -1));
  REQUIRE(redirect.result() == REDIRECT);
  CHECK(redirect.redirect().node() == "node-a");
  CHECK(redirect.redirect().address() == "ws://127.0.0.1:" + std::to_string(a.port()) + "/ws");
  CHECK_FALSE(redirect.redirect().ticket().empty());

  // A ticket for another match, a forged one, or one on a command it was not given for.
  auto other = connect_as(a.port(), "Other");
  ClientMessage wrong = join_match(id + 1000, -1);
  wrong.set_ticket(redirect.redirect().ticket());
  CHECK(other->request(wrong).result() == TICKET_WRONG_MATCH);
  ClientMessage forged = join_match(id, -1);
  std::string bytes = redirect.redirect().ticket();
  bytes[3] = static_cast<char>(bytes[3] ^ 0x40);
  forged.set_ticket(bytes);
  CHECK(other->request(forged).result() == TICKET_FORGED);
  ClientMessage watch = spectate(id);
  watch.set_ticket(redirect.redirect().ticket());
  CHECK(other->request(watch).result() == TICKET_WRONG_MATCH);

  // Following the redirect joins the match on A: it starts.
  ServerMessage joined = request_following_redirects(joiner, join_match(id, -1), "Joiner");
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().match().match_id() == id);
  CHECK(joined.joined().seat() == 1);
}

TEST_CASE(
    "a new match is answered once its lease is in Redis: a join through another node sent at "
    "once is redirected to it") {
  RedisServer redis;
  ServerProcess a(node_args(redis, "node-a"));
  ServerProcess b(node_args(redis, "node-b"));
  wait_ready(a);
  wait_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // both see both nodes
  auto host = connect_as(a.port(), "Host");
  auto joiner = connect_as(b.port(), "Joiner");

  // Redis paused: A cannot take the new match's lease, so it does not answer the creation yet
  // (answered at once, a join through B could come before the lease and find no such match).
  REQUIRE(::kill(redis.pid(), SIGSTOP) == 0);
  const uint64_t request = host->send(create_match("force_battles", 2, true, 0));
  std::optional<ServerMessage> created;
  const auto paused_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(700);
  while (!created && std::chrono::steady_clock::now() < paused_until) {
    auto m = host->receive(std::chrono::milliseconds(50));
    if (m && m->request_id() == request) created = std::move(m);
  }
  ::kill(redis.pid(), SIGCONT);
  CHECK_FALSE(created.has_value());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!created && std::chrono::steady_clock::now() < deadline) {
    auto m = host->receive(std::chrono::milliseconds(100));
    if (m && m->request_id() == request) created = std::move(m);
  }
  REQUIRE(created.has_value());
  REQUIRE(created->result() == OK);
  const uint64_t id = created->created().match().match_id();
  CHECK(created->created().match().node() == "node-a");

  // At once, before B can have seen its listing: B finds the lease and redirects to A.
  ServerMessage redirect = joiner->request(join_match(id, -1));
  CHECK(redirect.result() == REDIRECT);
  CHECK(redirect.redirect().node() == "node-a");
  // The match was opened after the answer: following the redirect joins it and it starts.
  ServerMessage joined = request_following_redirects(joiner, join_match(id, -1), "Joiner");
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().seat() == 1);
}

TEST_CASE(
    "placement: a match created through a busier node is created on the least-loaded one "
    "by a redirect the client follows") {
  RedisServer redis;
  ServerProcess a(node_args(redis, "node-a"));
  ServerProcess b(node_args(redis, "node-b"));
  wait_ready(a);
  wait_ready(b);
  auto host = connect_as(a.port(), "Host");
  REQUIRE(host->request(create_match("force_battles", 2, true, 0)).result() == OK);
  // The next heartbeats carry A's load: B is now the least loaded.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  auto second = connect_as(a.port(), "Second");
  ServerMessage created =
      request_following_redirects(second, create_match("force_battles", 2, true, 0), "Second");
  REQUIRE(created.result() == OK);
  CHECK(created.created().match().node() == "node-b");
  // A ticket's creation is served where it lands, even if the table changed meanwhile.
  CHECK(created.created().seat() == 0);
}

TEST_CASE(
    "placement local: a node with room keeps the matches created through it, though another "
    "node is less loaded") {
  RedisServer redis;
  auto args = node_args(redis, "node-b");
  args.insert(args.end(), {"--placement", "local"});
  ServerProcess a(node_args(redis, "node-a"));
  ServerProcess b(args);
  wait_ready(a);
  wait_ready(b);
  auto host = connect_as(b.port(), "Host");
  REQUIRE(host->request(create_match("force_battles", 2, true, 0)).result() == OK);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // A is now the least loaded
  ServerMessage second = host->request(create_match("force_battles", 2, true, 0));
  REQUIRE(second.result() == OK);
  CHECK(second.created().match().node() == "node-b");
}

TEST_CASE(
    "Redis lost while running: /readyz turns 503, no new matches, and both come back "
    "after Redis does") {
  RedisServer redis;
  ServerProcess a(node_args(redis, "node-a"));
  wait_ready(a);
  auto host = connect_as(a.port(), "Host");
  REQUIRE(host->request(create_match("force_battles", 2, true, 0)).result() == OK);

  redis.stop();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (ready(a) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const HttpAnswer down = http_get(a.port(), "/readyz");
  CHECK(down.status == 503);
  CHECK(down.body.find("cluster unreachable") != std::string::npos);
  CHECK(host->request(create_match("force_battles", 2, true, 0)).result() == CLUSTER_UNAVAILABLE);
  CHECK(a.alive());

  redis.start();
  wait_ready(a);
  CHECK(host->request(create_match("force_battles", 2, true, 0)).result() == OK);
}

TEST_CASE("Redis down at start: the node does not start and says which Redis it cannot reach") {
  const uint16_t port = free_loopback_port();
  const auto result =
      run_to_exit({"--port", std::to_string(free_loopback_port()), "--storage", "memory",
                   "--cluster", "redis://127.0.0.1:" + std::to_string(port), "--node-name", "n",
                   "--cluster-secret", kSecret});
  CHECK(result.status == 1);
  CHECK(result.output.find("cannot reach Redis at 127.0.0.1:" + std::to_string(port)) !=
        std::string::npos);
}
