// Quick pairing across the nodes of a cluster (docs/pairing.md, "Across a cluster"): real duelhall
// processes on one throw-away Redis, a seeker on each node.
#include <catch2/catch.hpp>

#include "../integration/helpers.hpp"
#include "redirect.hpp"
#include "redis_server.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

std::vector<std::string> pairing_node_args(const RedisServer& redis, const std::string& name) {
  return {"--cluster",        redis.url(), "--node-name", name,
          "--cluster-secret", "the shared secret of the test cluster",
          "--storage",        "memory"};
}

void wait_pairing_node_ready(const ServerProcess& server) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (http_get(server.port(), "/readyz").status == 200) return;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("the node did not become ready");
}

ClientMessage seek_pool() {
  ClientMessage m;
  m.mutable_seek()->set_ruleset("force_battles");
  m.mutable_seek()->set_clock("rapid");
  return m;
}

ClientMessage cancel_seek() {
  ClientMessage m;
  m.mutable_cancel_seek();
  return m;
}

std::vector<Paired> paired_pushes(WsClient& client) {
  std::vector<Paired> out;
  for (const auto& m : client.pushed()) {
    if (m.has_paired()) out.push_back(m.paired());
  }
  return out;
}

// Follows a Paired's redirect as a client does: a connection to the match's node, Hello under
// the same name, JoinMatch with the ticket.
ServerMessage join_by_redirect(const Paired& paired, const std::string& name,
                               std::unique_ptr<WsClient>& moved) {
  auto address = client::parse_ws_address(paired.redirect().address());
  REQUIRE(address.has_value());
  moved = std::make_unique<WsClient>();
  moved->connect(address->host, address->port, address->path);
  REQUIRE(moved->hello(name).result() == OK);
  ClientMessage join = join_match(paired.match_id(), paired.seat());
  join.set_ticket(paired.redirect().ticket());
  return moved->request(join);
}

struct TwoNodes {
  RedisServer redis;
  ServerProcess a{pairing_node_args(redis, "node-a")};
  ServerProcess b{pairing_node_args(redis, "node-b")};
  TwoNodes() {
    wait_pairing_node_ready(a);
    wait_pairing_node_ready(b);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // both see both nodes
  }
};

}  // namespace

TEST_CASE(
    "pairing across nodes: a seeker on each node lands in the same match within 3 s, paired "
    "once") {
  TwoNodes nodes;
  auto ann = connect_as(nodes.a.port(), "Ann");
  auto ben = connect_as(nodes.b.port(), "Ben");
  const ServerMessage first = ann->request(seek_pool());
  REQUIRE(first.result() == OK);
  CHECK(first.seek_status().seeking());
  const ServerMessage second = ben->request(seek_pool());
  REQUIRE(second.result() == OK);
  const auto sought = std::chrono::steady_clock::now();

  REQUIRE(ann->wait_until([&] { return !paired_pushes(*ann).empty(); }, std::chrono::seconds(3)));
  REQUIRE(ben->wait_until([&] { return !paired_pushes(*ben).empty(); }, std::chrono::seconds(3)));
  const Paired at_ann = paired_pushes(*ann).front();
  const Paired at_ben = paired_pushes(*ben).front();
  CHECK(at_ann.match_id() == at_ben.match_id());
  CHECK(at_ann.seat() != at_ben.seat());
  // Made on one node, whose player is seated already; the other's is sent there with a ticket.
  const bool made_on_a = !at_ann.has_redirect();
  CHECK(made_on_a != !at_ben.has_redirect());
  const Paired& remote = made_on_a ? at_ben : at_ann;
  CHECK(remote.redirect().node() == (made_on_a ? "node-a" : "node-b"));
  CHECK(remote.match().node() == remote.redirect().node());
  std::unique_ptr<WsClient> moved;
  const ServerMessage joined = join_by_redirect(remote, made_on_a ? "Ben" : "Ann", moved);
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().match().match_id() == remote.match_id());
  CHECK(joined.joined().seat() == remote.seat());
  const auto elapsed = std::chrono::steady_clock::now() - sought;
  CHECK(elapsed < std::chrono::seconds(3));
  WARN("both seated "
       << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()
       << " ms after the second seek");

  // Never paired twice: two waves later each was told once, and neither seeks any more.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  CHECK(paired_pushes(*ann).size() == 1);
  CHECK(paired_pushes(*ben).size() == 1);
  CHECK(ann->request(cancel_seek()).result() == NOT_SEEKING);
  CHECK(ben->request(cancel_seek()).result() == NOT_SEEKING);
}

TEST_CASE(
    "pairing across nodes: a cancel or a disconnect on one node takes the seek out of the "
    "cluster's pools") {
  TwoNodes nodes;
  auto ann = connect_as(nodes.a.port(), "Ann");
  REQUIRE(ann->request(seek_pool()).result() == OK);
  const ServerMessage cancelled = ann->request(cancel_seek());
  REQUIRE(cancelled.result() == OK);
  CHECK_FALSE(cancelled.seek_status().seeking());
  {
    auto carl = connect_as(nodes.a.port(), "Carl");
    REQUIRE(carl->request(seek_pool()).result() == OK);
    carl->close();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the close reaches node-a

  auto ben = connect_as(nodes.b.port(), "Ben");
  const ServerMessage alone = ben->request(seek_pool());
  REQUIRE(alone.result() == OK);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // two waves at least
  CHECK(paired_pushes(*ben).empty());
  CHECK(paired_pushes(*ann).empty());

  // The pool still pairs: a new seeker on node-a is paired with Ben.
  auto dan = connect_as(nodes.a.port(), "Dan");
  REQUIRE(dan->request(seek_pool()).result() == OK);
  REQUIRE(ben->wait_until([&] { return !paired_pushes(*ben).empty(); }, std::chrono::seconds(3)));
  REQUIRE(dan->wait_until([&] { return !paired_pushes(*dan).empty(); }, std::chrono::seconds(3)));
  CHECK(paired_pushes(*ben).front().match_id() == paired_pushes(*dan).front().match_id());
  CHECK(paired_pushes(*ann).empty());
}
