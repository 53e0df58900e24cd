// A node that was only slow (docs/cluster.md, Failover) must not write once another node has
// claimed its match, and must give the match up when it learns. First the claim is made in the
// shared PostgreSQL store behind the node's back (as an adopter would after the node's lease
// lapsed, while the node, cut off from Redis, still believes it owns the match): the node's next
// append is refused by the store, and the node stops the match without acknowledging the action,
// without ending the match in the store and without crashing, and closes its players'
// connections so they reconnect. Then a node is paused (SIGSTOP) past its lease: another node
// adopts its match, and when the paused node wakes it stops the match, and the player who
// reconnects to it is sent to the adopter and plays on there. Last, an adopted match whose
// player never comes back: its seat goes to the bot after the grace period.
#include <signal.h>

#include <catch2/catch.hpp>

#include "cluster_harness.hpp"
#include "storage/postgres/postgres_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// Plays the pending seat's first legal action through that seat's client; its reply (and the
// action's code in `played`). The clients are first brought past `seq`, the seq of the action
// played before (each accepted action moves it on), so the legal actions they hold are current;
// a bot's turn is waited out.
ServerMessage act_pending(std::vector<std::unique_ptr<WsClient>>& seats, uint64_t match,
                          uint64_t& seq, uint64_t* played = nullptr) {
  for (auto& c : seats) {
    c->wait_until([&] {
      auto* t = c->tracker().find(match);
      return t && t->seq >= seq;
    });
  }
  for (int round = 0; round < 100; ++round) {
    for (auto& c : seats) {
      auto* t = c->tracker().find(match);
      if (!t || t->legal.empty()) {
        c->wait_until([&] { return !c->tracker().find(match)->legal.empty(); },
                      std::chrono::milliseconds(50));
        t = c->tracker().find(match);
      }
      if (!t || t->legal.empty()) continue;
      const uint64_t at = t->seq;
      const uint64_t code = t->legal.front().code();
      if (played) *played = code;
      const ServerMessage reply = c->request(action(match, code, at));
      seq = at + 1;
      return reply;
    }
  }
  FAIL("no seat has a legal action after seq " << seq);
  return {};
}

// Waits for the connection to be closed by the server; false if it is still open after 5 s.
bool closed_by_server(WsClient& c) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (c.is_open() && std::chrono::steady_clock::now() < deadline) {
    try {
      c.receive(std::chrono::milliseconds(100));
    } catch (const client::ConnectionClosed&) {
      return true;
    }
  }
  return !c.is_open();
}

}  // namespace

TEST_CASE(
    "fencing: an append of a node whose match was claimed at a higher epoch is refused, and the "
    "node stops the match (MATCH_MOVED, connections closed to reconnect) without crashing") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess node(pg_node_args(redis, "node-a", database));
  wait_node_ready(node);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));

  // Two players, no bots: nothing moves but what the test plays.
  std::vector<std::unique_ptr<WsClient>> seats;
  seats.push_back(connect_as(node.port(), "First"));
  const ServerMessage created = seats[0]->request(create_match("force_battles", 2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  seats.push_back(connect_as(node.port(), "Second"));
  REQUIRE(seats[1]->request(join_match(id, -1)).result() == OK);
  uint64_t seq = 0;
  for (int i = 0; i < 3; ++i) {
    const ServerMessage played = act_pending(seats, id, seq);
    INFO("action " << i << ": " << played.reason());
    REQUIRE(played.result() == OK);
  }

  // The node claimed the match at its lease's epoch, and its appends carry it.
  storage::PostgresMatchStore store(database);
  const auto owner = store.match_owner(static_cast<storage::MatchId>(id));
  REQUIRE(owner.has_value());
  CHECK(owner->node == "node-a");
  CHECK(owner->epoch >= 1);
  const size_t stored_steps = store.load_match(static_cast<storage::MatchId>(id))->steps.size();
  CHECK(stored_steps >= 3);

  // Another node claims it at a higher epoch; node-a's Redis still names node-a.
  store.claim_match(static_cast<storage::MatchId>(id), owner->epoch + 1, "node-b");
  const ServerMessage refused = act_pending(seats, id, seq);
  CHECK(refused.result() == MATCH_MOVED);
  CHECK(refused.reason().find("moved to another node") != std::string::npos);

  // Both players' connections close as ones to open again, saying why.
  for (auto& c : seats) {
    CHECK(closed_by_server(*c));
    CHECK(c->close_code() == 1012);
    CHECK(c->close_reason().find("MATCH_MOVED") != std::string::npos);
  }
  // Nothing of the refused action is stored, the match is not ended, and the node serves on.
  const auto after = store.load_match(static_cast<storage::MatchId>(id));
  CHECK(after->steps.size() == stored_steps);
  CHECK(after->summary.status == storage::MatchStatus::kLive);
  CHECK(node.alive());
  auto later = connect_as(node.port(), "Later");
  CHECK(later->request(create_match("force_battles", 2, true, 1)).result() == OK);
}

TEST_CASE(
    "a lost lease: a node paused past its lease loses its match to another node, stops it when it "
    "wakes, and sends the player who reconnects to it on to the adopter") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess a(pg_node_args(redis, "node-a", database));
  ServerProcess b(pg_node_args(redis, "node-b", database));
  wait_node_ready(a);
  wait_node_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));

  // Two players, no bots, on node-a (both nodes are empty: the tie goes to node-a). Nothing is
  // written while the players do not act, so only the heartbeat can tell node-a it lost the match.
  std::vector<std::unique_ptr<WsClient>> seats(2);
  std::vector<std::string> tokens(2);
  const ServerMessage created = create_in_cluster(
      seats[0], a.port(), "First", create_match("force_battles", 2, true, 0), tokens[0]);
  REQUIRE(created.result() == OK);
  REQUIRE(created.created().match().node() == "node-a");
  const uint64_t id = created.created().match().match_id();
  seats[1] = std::make_unique<WsClient>();
  seats[1]->connect("127.0.0.1", a.port());
  const ServerMessage second = seats[1]->hello("Second");
  REQUIRE(second.result() == OK);
  tokens[1] = second.welcome().resume_token();
  REQUIRE(seats[1]->request(join_match(id, -1)).result() == OK);
  std::vector<std::pair<uint64_t, uint64_t>> acknowledged;
  uint64_t seq = 0;
  auto play_one = [&] {
    uint64_t code = 0;
    const ServerMessage reply = act_pending(seats, id, seq, &code);
    if (reply.result() == OK) acknowledged.emplace_back(seq - 1, code);
    return reply;
  };
  REQUIRE(play_one().result() == OK);
  REQUIRE(play_one().result() == OK);

  // Paused past its lease: node-b adopts the match and claims it in the store.
  storage::PostgresMatchStore store(database);
  a.signal(SIGSTOP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  auto owner = store.match_owner(static_cast<storage::MatchId>(id));
  while ((!owner || owner->node != "node-b") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    owner = store.match_owner(static_cast<storage::MatchId>(id));
  }
  REQUIRE(owner.has_value());
  REQUIRE(owner->node == "node-b");

  // Awake, node-a hears from its heartbeat that it lost the match, and closes the players'
  // connections to reconnect.
  a.signal(SIGCONT);
  for (auto& c : seats) {
    CHECK(closed_by_server(*c));
    CHECK(c->close_code() == 1012);
    CHECK(c->close_reason().find("MATCH_MOVED") != std::string::npos);
  }
  CHECK(a.alive());

  // The players reconnect to node-a, which knows them but no longer hosts their match: they are
  // sent to node-b, resume there and play on.
  for (size_t i = 0; i < seats.size(); ++i) {
    const client::MatchTracker tracker = seats[i]->tracker();
    seats[i] = std::make_unique<WsClient>();
    seats[i]->tracker() = tracker;
    seats[i]->connect("127.0.0.1", a.port());
    const ServerMessage welcome = client::resume_following_redirects(seats[i], tokens[i]);
    REQUIRE(welcome.result() == OK);
    CHECK(welcome.welcome().resumed());
    REQUIRE(welcome.welcome().matches_size() == 1);
    CHECK(welcome.welcome().matches(0) == id);
    REQUIRE(seats[i]->request(resync(id)).has_snapshot());
  }
  REQUIRE(play_one().result() == OK);
  CHECK(store.match_owner(static_cast<storage::MatchId>(id))->node == "node-b");
  const auto stored = store.load_match(static_cast<storage::MatchId>(id));
  REQUIRE(stored.has_value());
  // Every action a node acknowledged, before and after the move, is in the log at its place.
  CHECK(stored->steps.size() >= acknowledged.size());
  for (const auto& [index, code] : acknowledged) {
    REQUIRE(index < stored->steps.size());
    CHECK(stored->steps[index].action.code() == code);
  }
}

TEST_CASE(
    "an adopted match whose player does not come back within the grace period counted from the "
    "adoption gives the seat to the bot (a match left with no human then ends)") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess a(pg_node_args(redis, "node-a", database, "2"));
  ServerProcess b(pg_node_args(redis, "node-b", database, "2"));
  wait_node_ready(a);
  wait_node_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  std::unique_ptr<WsClient> player;
  std::string token;
  const ServerMessage created =
      create_in_cluster(player, a.port(), "Gone", create_match("force_battles", 2, true, 1), token);
  REQUIRE(created.result() == OK);
  REQUIRE(created.created().match().node() == "node-a");
  const auto id = static_cast<storage::MatchId>(created.created().match().match_id());
  storage::PostgresMatchStore store(database);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!store.load_match(id) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(store.load_match(id).has_value());

  // The player never acts and is gone with node-a; node-b adopts the match.
  a.kill_hard();
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  auto owner = store.match_owner(id);
  while ((!owner || owner->node != "node-b") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    owner = store.match_owner(id);
  }
  REQUIRE(owner->node == "node-b");
  // Once the grace period is over, the player's seat is the bot's: it plays, or the match, left
  // with no human, ends. Without the grace period the match would wait for its player forever.
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  auto seat_zero_played = [&] {
    const auto stored = store.load_match(id);
    for (const auto& step : stored->steps) {
      if (step.seat == 0) return true;
    }
    // With no human left the match ends (match_resign.cpp), as it would on one server.
    return stored->summary.status != storage::MatchStatus::kLive;
  };
  while (!seat_zero_played() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto last = store.load_match(id);
  INFO("steps " << last->steps.size() << ", status " << storage::to_string(last->summary.status));
  CHECK(seat_zero_played());
  CHECK(b.alive());
}
