// Challenges, presence and the online list across the nodes of a cluster (docs/pairing.md,
// "Across a cluster"): real duelhall processes sharing a throw-away Redis and a throw-away
// PostgreSQL (the accounts), a player on each node.
#include <catch2/catch.hpp>

#include "../integration/moderation_helpers.hpp"
#include "cluster_harness.hpp"
#include "redirect.hpp"
#include "redis_server.hpp"
#include "support/throwaway_postgres.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

bool friends_eventually(const std::function<bool()>& done, int seconds = 10) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

struct FriendsCluster {
  RedisServer redis;
  std::string database = ThrowawayPostgres::shared().new_database();
  std::unique_ptr<ServerProcess> a, b;
  FriendsCluster() {
    a = std::make_unique<ServerProcess>(pg_node_args(redis, "node-a", database));
    wait_node_ready(*a);
    b = std::make_unique<ServerProcess>(pg_node_args(redis, "node-b", database));
    wait_node_ready(*b);
  }
};

ClientMessage challenge_to(const std::string& name) {
  ClientMessage m;
  m.mutable_challenge()->set_to_name(name);
  m.mutable_challenge()->mutable_settings()->set_ruleset("force_battles");
  m.mutable_challenge()->mutable_settings()->set_seats(2);
  return m;
}

ClientMessage answer_message(uint64_t id, bool accept, const std::string& reason = {}) {
  ClientMessage m;
  m.mutable_answer_challenge()->set_challenge_id(id);
  m.mutable_answer_challenge()->set_accept(accept);
  m.mutable_answer_challenge()->set_reason(reason);
  return m;
}

ClientMessage list_online() {
  ClientMessage m;
  m.mutable_list_online();
  return m;
}

// The last ChallengeUpdate pushed to `c` about challenge `id`, in `state`.
bool pushed_update(WsClient& c, uint64_t id, ChallengeUpdate::State state) {
  const auto pushes = c.pushed();
  return std::any_of(pushes.begin(), pushes.end(), [&](const ServerMessage& m) {
    return m.has_challenge_update() && m.challenge_update().challenge().challenge_id() == id &&
           m.challenge_update().state() == state;
  });
}

FollowedPlayer::Presence presence_in(const ServerMessage& reply, const std::string& name) {
  for (const auto& p : reply.online().players()) {
    if (p.name() == name) return p.presence();
  }
  return FollowedPlayer::OFFLINE;
}

}  // namespace

TEST_CASE(
    "cluster friends: each node lists the accounts connected to the other, counts every player, "
    "tells a follower on one node when the followed account connects to the other, and features "
    "the other's match on its TV") {
  FriendsCluster cluster;
  auto ann = account_connection(cluster.a->port(), "ann");
  ClientMessage follow;
  follow.mutable_follow()->set_name("ben");
  std::string ben_session;
  auto ben = account_connection(cluster.b->port(), "ben", &ben_session);
  ben.reset();  // ben exists, and is gone
  REQUIRE(ann->request(follow).result() == OK);

  auto back = std::make_unique<WsClient>();
  back->connect("127.0.0.1", cluster.b->port());
  REQUIRE(back->request(hello_with_session(ben_session)).result() == OK);
  // ann, on node A, is pushed ben ONLINE within a few presence ticks.
  REQUIRE(ann->wait_until([&] {
    for (const auto& m : ann->pushed()) {
      if (!m.has_followed()) continue;
      for (const auto& p : m.followed().players()) {
        if (p.name() == "ben" && p.presence() == FollowedPlayer::ONLINE) return true;
      }
    }
    return false;
  }));
  // Each node's online list holds both accounts, and its counts both players.
  for (WsClient* c : {ann.get(), back.get()}) {
    ServerMessage online;
    REQUIRE(friends_eventually([&] {
      online = c->request(list_online());
      return online.online().total() == 2 && online.online().counts().players_online() == 2;
    }));
    CHECK(presence_in(online, "ann") == FollowedPlayer::ONLINE);
    CHECK(presence_in(online, "ben") == FollowedPlayer::ONLINE);
  }
  // A match in play on one node is featured by the other's TV.
  std::unique_ptr<WsClient> host;
  std::string host_token;
  const ServerMessage made = create_in_cluster(host, cluster.b->port(), "tv host",
                                               create_match("force_battles", 2, true, 1), host_token);
  REQUIRE(made.result() == OK);
  const uint64_t featured = made.created().match().match_id();
  const bool on_a = made.created().match().node() == "node-a";
  WsClient viewer;
  viewer.connect("127.0.0.1", on_a ? cluster.b->port() : cluster.a->port());
  REQUIRE(viewer.hello("viewer").result() == OK);
  ClientMessage tv;
  tv.mutable_get_tv()->set_ruleset("force_battles");
  CHECK(friends_eventually([&] { return viewer.request(tv).tv().match_id() == featured; }));

  // ben leaves node B: node A lists ann alone once B's next presence is read.
  back.reset();
  CHECK(friends_eventually([&] { return ann->request(list_online()).online().total() == 1; }));
}

TEST_CASE(
    "cluster friends: a challenge sent on node A reaches its target on node B, is accepted there "
    "once, and both sit in one match; a decline across nodes reaches the challenger") {
  FriendsCluster cluster;
  auto ann = account_connection(cluster.a->port(), "ann");
  std::string ben_session;
  auto ben = account_connection(cluster.b->port(), "ben", &ben_session);
  // Node A sees ben online (a challenge to a connected account waits the short time).
  REQUIRE(friends_eventually(
      [&] { return presence_in(ann->request(list_online()), "ben") == FollowedPlayer::ONLINE; }));

  const ServerMessage sent = ann->request(challenge_to("ben"));
  REQUIRE(sent.result() == OK);
  const uint64_t id = sent.challenge_update().challenge().challenge_id();
  CHECK_FALSE(sent.challenge_update().challenge().sent_offline());
  REQUIRE(ben->wait_until([&] { return pushed_update(*ben, id, ChallengeUpdate::PENDING); }));

  // Accepted on B: B answers with the match on A and a ticket for seat 1.
  const ServerMessage accepted = ben->request(answer_message(id, true));
  REQUIRE(accepted.result() == OK);
  REQUIRE(accepted.has_paired());
  const Paired& paired = accepted.paired();
  CHECK(paired.seat() == 1);
  REQUIRE(paired.has_redirect());
  CHECK(paired.redirect().node() == "node-a");
  REQUIRE(ann->wait_until([&] { return pushed_update(*ann, id, ChallengeUpdate::ACCEPTED); }));
  // A second answer is refused: the challenge was taken once.
  CHECK(ben->request(answer_message(id, true)).result() == CHALLENGE_GONE);

  // ben follows the redirect to node A and sits in seat 1 with the ticket.
  auto address = client::parse_ws_address(paired.redirect().address());
  REQUIRE(address.has_value());
  WsClient moved;
  moved.connect(address->host, address->port, address->path);
  REQUIRE(moved.request(hello_with_session(ben_session)).result() == OK);
  ClientMessage join = join_match(paired.match_id(), 1);
  join.set_ticket(paired.redirect().ticket());
  const ServerMessage joined = moved.request(join);
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().seat() == 1);

  // A second challenge, declined on B with a reason: A's challenger is told it.
  auto cara = account_connection(cluster.a->port(), "cara");
  const ServerMessage second = cara->request(challenge_to("ben"));
  REQUIRE(second.result() == OK);
  const uint64_t second_id = second.challenge_update().challenge().challenge_id();
  CHECK(second_id != id);
  REQUIRE(ben->wait_until([&] { return pushed_update(*ben, second_id, ChallengeUpdate::PENDING); }));
  REQUIRE(ben->request(answer_message(second_id, false, "busy")).result() == OK);
  REQUIRE(cara->wait_until([&] {
    for (const auto& m : cara->pushed()) {
      if (m.has_challenge_update() && m.challenge_update().state() == ChallengeUpdate::DECLINED &&
          m.challenge_update().reason() == "busy")
        return true;
    }
    return false;
  }));
}

TEST_CASE(
    "cluster friends: a challenge to an account connected nowhere waits, and is delivered when "
    "it connects to the other node; a withdrawal there reaches it") {
  FriendsCluster cluster;
  std::string ben_session;
  account_connection(cluster.b->port(), "ben", &ben_session).reset();
  auto ann = account_connection(cluster.a->port(), "ann");
  // ben's account is known once registered; its connection is gone before the challenge.
  REQUIRE(friends_eventually(
      [&] { return presence_in(ann->request(list_online()), "ben") == FollowedPlayer::OFFLINE; }));
  const ServerMessage sent = ann->request(challenge_to("ben"));
  REQUIRE(sent.result() == OK);
  CHECK(sent.challenge_update().challenge().sent_offline());
  const uint64_t id = sent.challenge_update().challenge().challenge_id();

  WsClient ben;
  ben.connect("127.0.0.1", cluster.b->port());
  REQUIRE(ben.request(hello_with_session(ben_session)).result() == OK);
  REQUIRE(ben.wait_until([&] { return pushed_update(ben, id, ChallengeUpdate::PENDING); }));

  ClientMessage cancel;
  cancel.mutable_cancel_challenge()->set_challenge_id(id);
  REQUIRE(ann->request(cancel).result() == OK);
  REQUIRE(ben.wait_until([&] { return pushed_update(ben, id, ChallengeUpdate::WITHDRAWN); }));
  CHECK(ben.request(answer_message(id, true)).result() == CHALLENGE_GONE);
  CHECK(cluster.a->alive());
  CHECK(cluster.b->alive());
}
