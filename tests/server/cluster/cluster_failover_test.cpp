// Failover (docs/cluster.md): three real nodes on one throw-away Redis and one throw-away
// PostgreSQL database. Players play several matches; the node that hosts most of them is killed
// with SIGKILL in mid-play. Every match of that node must go on on a survivor within 10 s, its
// player reconnecting with its resume token to any survivor (and sent on to the adopter), every
// action a node acknowledged must be in the shared log, and every player's view after the
// reconnect must be the view a replay of the stored log gives at that point, as must a fresh
// spectator's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "cluster_harness.hpp"
#include "core/bot.hpp"
#include "core/registry.hpp"
#include "storage/postgres/postgres_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;
using Clock = std::chrono::steady_clock;

namespace {

struct Played {
  uint64_t match = 0;
  std::string ruleset;
  std::string token;
  std::string node;  // the node that hosted it first
  std::unique_ptr<WsClient> client;
  // (index in the match's history, action code) of every action a node answered OK.
  std::vector<std::pair<uint64_t, uint64_t>> acknowledged;
  std::atomic<int> acks{0};
  std::atomic<int> acks_after_kill{0};
  std::atomic<bool> done{false};
  std::atomic<bool> lost{false};  // its connection went with the killed node
  // After the reconnect: seconds from the kill to the resume and to the first acknowledged
  // action, and the snapshot the player got (its seq and view).
  double resumed_after = -1;
  double acked_after = -1;
  uint64_t snapshot_seq = 0;
  std::string snapshot_view;
  std::string problem;
};

struct Cluster {
  std::vector<std::unique_ptr<ServerProcess>> nodes;
  std::vector<std::string> names;
  Clock::time_point killed_at{};
  std::atomic<int> victim{-1};  // set after killed_at
};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Resumes `p` on the survivors in turn from `first`, following a redirect to the adopter, until
// `deadline` (while nobody has adopted the match yet, nodes answer CLUSTER_UNAVAILABLE).
bool reconnect(Played& p, Cluster& cluster, size_t first, Clock::time_point deadline) {
  const client::MatchTracker tracker = p.client->tracker();
  for (size_t attempt = 0; Clock::now() < deadline; ++attempt) {
    const size_t n = (first + attempt) % cluster.nodes.size();
    if (static_cast<int>(n) == cluster.victim) continue;
    try {
      auto c = std::make_unique<WsClient>();
      c->tracker() = tracker;
      c->connect("127.0.0.1", cluster.nodes[n]->port());
      const ServerMessage welcome = client::resume_following_redirects(c, p.token);
      if (welcome.result() == OK && welcome.welcome().resumed() &&
          welcome.welcome().matches_size() == 1 && welcome.welcome().matches(0) == p.match) {
        p.resumed_after = seconds_since(cluster.killed_at);
        const ServerMessage snapshot = c->request(resync(p.match));
        if (!snapshot.has_snapshot()) {
          p.problem = "no snapshot after the resume: " + snapshot.reason();
          return false;
        }
        p.snapshot_seq = snapshot.snapshot().seq();
        p.snapshot_view = snapshot.snapshot().view();
        p.client = std::move(c);
        return true;
      }
    } catch (const std::exception&) {
      // a node that is not up (the dead one, still named by its lease): try the next
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  p.problem = "not resumed within 25 s";
  return false;
}

// Plays random legal actions for seat 0 until the match ends or `stop`; when the connection
// drops (its node was killed), reconnects to a survivor and plays on there.
void play(Played& p, Cluster& cluster, const engine::RulesetInfo& info, uint64_t seed, size_t index,
          const std::atomic<bool>& stop) {
  engine::Rng rng(engine::seed_from_number(seed));
  while (!stop) {
    try {
      WsClient& client = *p.client;
      bool ready = false;
      for (int waited = 0; waited < 20 && !ready && !stop; ++waited) {
        ready = client.wait_until(
            [&] {
              auto* t = client.tracker().find(p.match);
              return t && (t->ended || !t->legal.empty());
            },
            std::chrono::seconds(1));
      }
      if (stop) break;
      if (!ready) {
        p.problem = "no legal action for 20 s";
        break;
      }
      auto* t = client.tracker().find(p.match);
      if (t->ended) break;
      std::vector<engine::Action> legal;
      for (const auto& a : t->legal) legal.push_back(engine::Action::from_code(a.code()));
      engine::drop_avoided(legal, info.resign_kinds);
      const uint64_t code = legal[rng.below(static_cast<uint32_t>(legal.size()))].code();
      const uint64_t seq = t->seq;
      const ServerMessage reply = client.request(action(p.match, code, seq));
      if (reply.result() == OK) {
        p.acknowledged.emplace_back(seq, code);
        ++p.acks;
        if (p.lost) {
          if (p.acked_after < 0) p.acked_after = seconds_since(cluster.killed_at);
          ++p.acks_after_kill;
        }
      }
    } catch (const std::exception&) {
      // The node died under us: what the client has now is what it saw.
      if (p.lost || cluster.victim < 0) {
        p.problem = "lost its connection twice, or with no node killed";
        break;
      }
      p.lost = true;
      if (!reconnect(p, cluster, index, Clock::now() + std::chrono::seconds(25))) break;
    }
  }
  p.done = true;
}

}  // namespace

TEST_CASE(
    "failover: the owner killed with SIGKILL mid-play under load, every match goes on on a "
    "survivor within 10 s with every acknowledged action and the views a replay gives") {
  const auto registry = engine::builtin_registry();
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  Cluster cluster;
  cluster.names = {"node-a", "node-b", "node-c"};
  for (const auto& name : cluster.names) {
    cluster.nodes.push_back(std::make_unique<ServerProcess>(pg_node_args(redis, name, database)));
  }
  for (const auto& node : cluster.nodes) wait_node_ready(*node);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // every node sees every node

  // Created through node-a and placed by the cluster: most (often all) land on one node.
  constexpr int kMatches = 9;
  std::vector<Played> played(kMatches);
  std::map<std::string, int> per_node;
  for (int i = 0; i < kMatches; ++i) {
    const auto& info = registry.all()[static_cast<size_t>(i) % registry.all().size()];
    Played& p = played[i];
    const ServerMessage created = create_in_cluster(
        p.client, cluster.nodes[0]->port(), "P" + std::to_string(i),
        create_match(info.name, info.min_seats, true, info.min_seats - 1), p.token);
    REQUIRE(created.result() == OK);
    p.match = created.created().match().match_id();
    p.node = created.created().match().node();
    p.ruleset = info.name;
    ++per_node[p.node];
  }
  const auto busiest = std::max_element(per_node.begin(), per_node.end(),
                                        [](auto& x, auto& y) { return x.second < y.second; });
  const std::string victim_name = busiest->first;
  const int victim = static_cast<int>(
      std::find(cluster.names.begin(), cluster.names.end(), victim_name) - cluster.names.begin());
  REQUIRE(victim < 3);

  std::atomic<bool> stop{false};
  std::vector<std::thread> players;
  for (int i = 0; i < kMatches; ++i) {
    const auto* info = registry.find(played[i].ruleset);
    players.emplace_back([&, i, info] {
      play(played[i], cluster, *info, static_cast<uint64_t>(i + 1), static_cast<size_t>(i), stop);
    });
  }
  // The kill comes once every match is a few actions in, while all are being played.
  auto all_past = [&](int acks) {
    for (const Played& p : played) {
      if (p.acks < acks && !p.done) return false;
    }
    return true;
  };
  auto deadline = Clock::now() + std::chrono::seconds(30);
  while (!all_past(4) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  cluster.killed_at = Clock::now();
  cluster.victim = victim;
  cluster.nodes[static_cast<size_t>(victim)]->kill_hard();

  // Every match of the dead node goes on: its player resumes on a survivor and acts again.
  auto moved_on = [&] {
    for (const Played& p : played) {
      if (p.node != victim_name || p.done) continue;
      if (!p.lost || p.acks_after_kill < 2) return false;
    }
    return true;
  };
  deadline = Clock::now() + std::chrono::seconds(30);
  while (!moved_on() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop = true;
  for (auto& t : players) t.join();

  storage::PostgresMatchStore store(database);
  int failed_over = 0;
  double slowest_resume = 0;
  double slowest_ack = 0;
  size_t checked_actions = 0;
  for (Played& p : played) {
    INFO("match " << p.match << " (" << p.ruleset << ") on " << p.node << ": " << p.problem);
    CHECK(p.problem.empty());
    auto stored = store.load_match(static_cast<storage::MatchId>(p.match));
    REQUIRE(stored.has_value());
    // Every acknowledged action is at its place in the shared log.
    for (const auto& [index, code] : p.acknowledged) {
      INFO("acknowledged at seq " << index << ": " << code);
      if (index == 0) {
        // Seq 0 skips the staleness check: the first action lands where seat 0 first acted.
        auto first = std::find_if(stored->steps.begin(), stored->steps.end(),
                                  [](const engine::Step& s) { return s.seat == 0; });
        REQUIRE(first != stored->steps.end());
        CHECK(first->action.code() == code);
        continue;
      }
      REQUIRE(index < stored->steps.size());
      CHECK(stored->steps[index].seat == 0);
      CHECK(stored->steps[index].action.code() == code);
      ++checked_actions;
    }
    if (p.node != victim_name) {
      CHECK_FALSE(p.lost);  // the other nodes' matches never noticed
      continue;
    }
    if (!p.lost) continue;  // ended before the kill
    ++failed_over;
    slowest_resume = std::max(slowest_resume, p.resumed_after);
    slowest_ack = std::max(slowest_ack, p.acked_after);
    CHECK(p.resumed_after > 0);
    CHECK(p.resumed_after < 10.0);
    // The adopter claimed the match in the store above the dead node's epoch.
    const auto owner = store.match_owner(static_cast<storage::MatchId>(p.match));
    REQUIRE(owner.has_value());
    CHECK(owner->node != victim_name);
    CHECK(owner->epoch >= 2);
    // The player's view after the reconnect is the stored log's at its seq.
    REQUIRE(p.snapshot_seq <= stored->steps.size());
    std::vector<engine::Step> prefix(
        stored->steps.begin(), stored->steps.begin() + static_cast<std::ptrdiff_t>(p.snapshot_seq));
    std::string error;
    auto state = engine::replay(registry, stored->config, prefix, error);
    REQUIRE(state != nullptr);
    CHECK(state->view(engine::Viewer::of_seat(0)) == p.snapshot_view);
    if (stored->summary.status != storage::MatchStatus::kLive) continue;
    // A fresh spectator through the survivor that does not host it: redirected, and shown what
    // a replay of the log shows.
    const size_t other = owner->node == cluster.names[(victim + 1) % 3]
                             ? static_cast<size_t>((victim + 2) % 3)
                             : static_cast<size_t>((victim + 1) % 3);
    auto watcher = connect_as(cluster.nodes[other]->port(), "Watcher");
    const ServerMessage watched =
        client::request_following_redirects(watcher, spectate(p.match), "Watcher");
    REQUIRE(watched.result() == OK);
    REQUIRE(watched.has_snapshot());
    auto now_stored = store.load_match(static_cast<storage::MatchId>(p.match));
    const uint64_t seen = watched.snapshot().seq();
    REQUIRE(seen <= now_stored->steps.size());
    std::vector<engine::Step> watched_prefix(
        now_stored->steps.begin(), now_stored->steps.begin() + static_cast<std::ptrdiff_t>(seen));
    auto public_state = engine::replay(registry, now_stored->config, watched_prefix, error);
    REQUIRE(public_state != nullptr);
    CHECK(public_state->view(engine::Viewer::spectator()) == watched.snapshot().view());
    // A resume said to that survivor is sent to the adopter.
    auto knock = std::make_unique<WsClient>();
    knock->connect("127.0.0.1", cluster.nodes[other]->port());
    ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(1);
    hello.mutable_hello()->set_resume_token(p.token);
    MatchCursor* cursor = hello.mutable_hello()->add_cursors();
    cursor->set_match_id(p.match);
    cursor->set_seq(p.snapshot_seq);
    const ServerMessage redirected = knock->request(hello);
    CHECK(redirected.result() == REDIRECT);
    CHECK(redirected.redirect().node() == owner->node);
  }
  // Most matches were in the middle of play when their node died.
  CHECK(failed_over >= per_node[victim_name] / 2);
  CHECK(failed_over >= 1);
  for (size_t n = 0; n < cluster.nodes.size(); ++n) {
    if (static_cast<int>(n) != victim) CHECK(cluster.nodes[n]->alive());
  }
  WARN("failover: " << failed_over << " matches of " << victim_name << " resumed on survivors; "
                    << "slowest resume " << slowest_resume << " s, slowest first action "
                    << slowest_ack << " s after the kill; " << checked_actions
                    << " acknowledged actions found in the shared log");
}

TEST_CASE(
    "a node starting on the cluster's shared database leaves the other live nodes' matches to "
    "them: it neither rebuilds nor serves them") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess a(pg_node_args(redis, "node-a", database));
  wait_node_ready(a);
  // A match in play on node-a, stored in the shared database as unfinished.
  std::unique_ptr<WsClient> player;
  std::string token;
  const ServerMessage created = create_in_cluster(player, a.port(), "Player",
                                                  create_match("force_battles", 2, true, 1), token);
  REQUIRE(created.result() == OK);
  REQUIRE(created.created().match().node() == "node-a");
  const uint64_t id = created.created().match().match_id();
  REQUIRE(player->wait_until([&] {
    auto* t = player->tracker().find(id);
    return t && t->status == PLAYING;
  }));
  storage::PostgresMatchStore store(database);
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!store.load_match(static_cast<storage::MatchId>(id)) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(store.load_match(static_cast<storage::MatchId>(id))->summary.status ==
          storage::MatchStatus::kLive);

  // node-b starts on the same database: its recovery finds the match unfinished and leaves it.
  ServerProcess b(pg_node_args(redis, "node-b", database));
  wait_node_ready(b);
  auto watcher = connect_as(b.port(), "Watcher");
  const ServerMessage watched = watcher->request(spectate(id));
  CHECK(watched.result() == REDIRECT);
  CHECK(watched.redirect().node() == "node-a");
  const auto owner = store.match_owner(static_cast<storage::MatchId>(id));
  REQUIRE(owner.has_value());
  CHECK(owner->node == "node-a");
  // The match plays on on node-a.
  CHECK(player->request(resync(id)).has_snapshot());
  CHECK(a.alive());
  CHECK(b.alive());
}
