// An adoption reads the match's log from PostgreSQL (docs/cluster.md, Failover); that read must
// not stall the adopter's connections. The test holds an update lock on the orphan's row in the
// shared database, so the adopter's claim waits on it (as it would behind a slow database or the
// old owner's batches in flight), and checks that the adopter, running one I/O thread, goes on
// answering a connection meanwhile (and tells a spectator to ask again, the match being on its
// way), and goes on storing and acknowledging the actions of its own matches; once the lock
// goes, the adoption completes and the spectator is served.
#include <catch2/catch.hpp>

#include "cluster_harness.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/postgres/postgres_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// Whether a session of `database` waits for a lock (the adopter's claim behind the test's lock).
bool claim_waits(storage::PgConnection& watcher) {
  const storage::PgResult waiting = watcher.query(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
      "wait_event_type = 'Lock'");
  return waiting.integer(0, 0) > 0;
}

}  // namespace

TEST_CASE(
    "an adopted match: the adopter reads the log off its I/O threads and its write connection, "
    "which go on serving and storing while the read waits on PostgreSQL") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess a(pg_node_args(redis, "node-a", database));
  std::vector<std::string> b_args = pg_node_args(redis, "node-b", database);
  // One I/O thread, and the matches created through it kept on it.
  b_args.insert(b_args.end(), {"--threads", "1", "--placement", "local"});
  ServerProcess b(b_args);
  wait_node_ready(a);
  wait_node_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));

  // A match on node-a (both nodes are empty: the tie goes to node-a), stored in the shared log.
  std::unique_ptr<WsClient> player;
  std::string token;
  const ServerMessage created = create_in_cluster(player, a.port(), "First",
                                                  create_match("force_battles", 2, true, 1), token);
  REQUIRE(created.result() == OK);
  REQUIRE(created.created().match().node() == "node-a");
  const uint64_t id = created.created().match().match_id();
  storage::PostgresMatchStore store(database);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!store.load_match(static_cast<storage::MatchId>(id)) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(store.load_match(static_cast<storage::MatchId>(id)).has_value());

  // A connection to node-b, in before the adoption, and a match of node-b's own against its bot.
  auto probe = connect_as(b.port(), "Probe");
  auto own = connect_as(b.port(), "Own");
  const ServerMessage mine = own->request(create_match("force_battles", 2, true, 1));
  REQUIRE(mine.result() == OK);
  REQUIRE(mine.created().match().node() == "node-b");
  const uint64_t own_id = mine.created().match().match_id();
  // Plays the first offered action; a bot's action that came first (STALE_SEQ) is waited out.
  uint64_t next_seq = 0;
  auto play_own = [&] {
    ServerMessage reply;
    for (int attempt = 0; attempt < 20; ++attempt) {
      own->wait_until([&] {
        auto* t = own->tracker().find(own_id);
        return t && t->seq >= next_seq && !t->legal.empty();
      });
      auto* t = own->tracker().find(own_id);
      REQUIRE(t);
      REQUIRE(!t->legal.empty());
      const uint64_t at = t->seq;
      next_seq = at + 1;
      reply = own->request(action(own_id, t->legal.front().code(), at),
                           std::chrono::milliseconds(2000));
      if (reply.result() != STALE_SEQ) break;
    }
    return reply;
  };
  REQUIRE(play_own().result() == OK);

  // The match's row locked as an old owner's batch in flight would hold it; node-a dies.
  storage::PgConnection lock(database);
  lock.exec("BEGIN");
  lock.query("SELECT id FROM matches WHERE id = $1 FOR UPDATE",
             storage::PgParams().add(static_cast<storage::MatchId>(id)));
  a.kill_hard();
  storage::PgConnection watcher(database);
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!claim_waits(watcher) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(claim_waits(watcher));

  // While node-b's claim waits, its only I/O thread answers at once: a ping, the rulesets, the
  // lobby (which lists the match on node-a still, or nowhere).
  for (int i = 0; i < 3; ++i) {
    const auto asked = std::chrono::steady_clock::now();
    ServerMessage pong;
    CHECK_NOTHROW(
        pong = probe->request(ping(static_cast<uint64_t>(i + 1)), std::chrono::milliseconds(2000)));
    CHECK(pong.has_pong());
    ClientMessage rulesets;
    rulesets.mutable_list_rulesets();
    CHECK_NOTHROW(probe->request(rulesets, std::chrono::milliseconds(2000)));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - asked);
    INFO("answered in " << took.count() << " ms");
    CHECK(took.count() < 1500);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  // Node-b's own match goes on: its action is stored and acknowledged (the adoption's claim
  // waits on a connection of its own, not on the one this node writes with).
  ServerMessage played;
  CHECK_NOTHROW(played = play_own());
  CHECK(played.result() == OK);
  // A spectator asking for the match meanwhile is told to ask again (node-b holds its lease but
  // is still rebuilding it), not that there is no such match.
  const ServerMessage early = probe->request(spectate(id), std::chrono::milliseconds(2000));
  CHECK(early.result() == CLUSTER_UNAVAILABLE);
  CHECK(claim_waits(watcher));  // the probes ran while the adoption was held up

  // The lock goes: node-b claims and rebuilds the match, and it is served there.
  lock.exec("ROLLBACK");
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto owner = store.match_owner(static_cast<storage::MatchId>(id));
  while ((!owner || owner->node != "node-b") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    owner = store.match_owner(static_cast<storage::MatchId>(id));
  }
  REQUIRE(owner.has_value());
  CHECK(owner->node == "node-b");
  ServerMessage watched;
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  do {
    watched = probe->request(spectate(id));
    if (watched.result() == OK) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (std::chrono::steady_clock::now() < deadline);
  CHECK(watched.result() == OK);
  CHECK(b.alive());
}
