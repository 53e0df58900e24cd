// Tournaments across a cluster (docs/tournaments.md, "In a cluster"): two real duelhall processes
// sharing a throw-away Redis and a throw-away PostgreSQL. The node that creates a tournament
// directs it (its lease); the other lists it and redirects commands about it there; when the
// director is killed mid-round, the other takes the lease, resumes the tournament from the store
// and takes the result of the game its player finishes on the adopted match.
#include <catch2/catch.hpp>

#include "../integration/moderation_helpers.hpp"
#include "cluster_harness.hpp"
#include "redirect.hpp"
#include "redis_server.hpp"
#include "support/throwaway_postgres.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

using TournamentClock = std::chrono::steady_clock;

int64_t unix_ms_now() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::vector<std::string> tournament_node_args(const RedisServer& redis, const std::string& name,
                                              const std::string& database) {
  std::vector<std::string> args = pg_node_args(redis, name, database);
  args.insert(args.end(), {"--tournament-creators", "anyone"});
  return args;
}

// A registered account's connection (its session's Hello): the Welcome's resume token is the one
// its seats are resumed with.
struct Signed {
  std::unique_ptr<WsClient> client;
  std::string token;
};
Signed signed_connection(uint16_t port, const std::string& name) {
  std::string session;
  account_connection(port, name, &session)->close();
  Signed out;
  out.client = std::make_unique<WsClient>();
  out.client->connect("127.0.0.1", port);
  const ServerMessage welcome = out.client->request(hello_with_session(session));
  REQUIRE(welcome.result() == OK);
  out.token = welcome.welcome().resume_token();
  return out;
}

ClientMessage swiss_of_one_round(int64_t start_ms) {
  ClientMessage m;
  TournamentSettings* s = m.mutable_create_tournament()->mutable_settings();
  s->set_name("Failover Swiss");
  s->set_ruleset("force_battles");
  s->set_format(FORMAT_SWISS);
  s->set_start_ms(static_cast<uint64_t>(start_ms));
  s->set_rounds(1);
  return m;
}

ClientMessage tournament_command(uint64_t id, bool join) {
  ClientMessage m;
  if (join) {
    m.mutable_join_tournament()->set_id(id);
  } else {
    m.mutable_get_tournament()->set_id(id);
  }
  return m;
}

}  // namespace

TEST_CASE(
    "cluster tournaments: the director node killed mid-round, the other node takes the "
    "tournament up from the store and finishes it with the result played on the adopted match") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  auto a = std::make_unique<ServerProcess>(tournament_node_args(redis, "node-a", database));
  wait_node_ready(*a);
  auto b = std::make_unique<ServerProcess>(tournament_node_args(redis, "node-b", database));
  wait_node_ready(*b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // both see both nodes

  Signed ann = signed_connection(a->port(), "ann");
  Signed ben = signed_connection(a->port(), "ben");
  const ServerMessage created = ann.client->request(swiss_of_one_round(unix_ms_now() + 6000));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.tournament().summary().id();
  for (Signed* p : {&ann, &ben}) {
    REQUIRE(p->client->request(tournament_command(id, true)).result() == OK);
  }

  // Node B lists it (from the store) and sends a command about it to its director, node A.
  WsClient watcher;
  watcher.connect("127.0.0.1", b->port());
  REQUIRE(watcher.hello("watcher").result() == OK);
  ClientMessage list;
  list.mutable_list_tournaments();
  const auto deadline = TournamentClock::now() + std::chrono::seconds(15);
  bool listed = false;
  while (!listed && TournamentClock::now() < deadline) {
    const ServerMessage listing = watcher.request(list);
    for (const auto& t : listing.tournaments().tournaments()) listed |= t.id() == id;
    if (!listed) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  REQUIRE(listed);
  const ServerMessage moved = watcher.request(tournament_command(id, false));
  REQUIRE(moved.result() == REDIRECT);
  CHECK(moved.redirect().node() == "node-a");

  // The start: node A makes the game's match and seats both.
  std::map<std::string, TournamentGameReady> ready;
  const auto game_of = [](WsClient& c) -> std::optional<TournamentGameReady> {
    for (const ServerMessage& m : c.pushed()) {
      if (m.has_tournament_game()) return m.tournament_game();
    }
    return std::nullopt;
  };
  for (Signed* p : {&ann, &ben}) {
    WsClient& c = *p->client;
    REQUIRE(c.wait_until([&] { return game_of(c).has_value(); }, std::chrono::milliseconds(20'000)));
    ready[p == &ann ? "ann" : "ben"] = *game_of(c);
  }
  const uint64_t match = ready["ann"].match_id();
  REQUIRE(match == ready["ben"].match_id());
  const bool ann_seat_one = ready["ann"].seat() == 1;

  // An action of the game is acknowledged (and so in the shared store) before the kill.
  bool acted = false;
  for (int i = 0; i < 100 && !acted; ++i) {
    for (Signed* p : {&ann, &ben}) {
      p->client->wait_until([] { return false; }, std::chrono::milliseconds(50));
      const auto& tracked = p->client->tracker().matches();
      const auto it = tracked.find(match);
      if (it == tracked.end() || it->second.legal.empty()) continue;
      const ServerMessage played =
          p->client->request(action(match, it->second.legal.front().code(), it->second.seq));
      if (played.result() == OK) {
        acted = true;
        break;
      }
    }
  }
  REQUIRE(acted);

  // Node A dies mid-round. The player of seat 1 resumes on B (the match's adopter) and resigns.
  a->kill_hard();
  Signed& loser = ann_seat_one ? ann : ben;
  const client::MatchTracker tracker = loser.client->tracker();
  std::unique_ptr<WsClient> resumed;
  std::string last_answer;
  const auto resume_deadline = TournamentClock::now() + std::chrono::seconds(30);
  while (!resumed && TournamentClock::now() < resume_deadline) {
    try {
      auto c = std::make_unique<WsClient>();
      c->tracker() = tracker;
      c->connect("127.0.0.1", b->port());
      const ServerMessage welcome = client::resume_following_redirects(c, loser.token);
      last_answer = ResultCode_Name(welcome.result()) + ": " + welcome.reason() +
                    (welcome.welcome().resumed() ? " (resumed)" : "");
      if (welcome.result() == OK && welcome.welcome().resumed()) resumed = std::move(c);
    } catch (const std::exception& e) {
      last_answer = e.what();
    }
    if (!resumed) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  INFO("the last answer to the resume: " << last_answer << "; matches tracked " << tracker.matches().size());
  REQUIRE(resumed);
  ClientMessage resign;
  resign.mutable_resign()->set_match_id(match);
  REQUIRE(resumed->request(resign).result() == OK);

  // Node B took the tournament up (its lease lapsed with A) and ends it with that result.
  TournamentDetail detail;
  const auto end_deadline = TournamentClock::now() + std::chrono::seconds(30);
  while (TournamentClock::now() < end_deadline) {
    const ServerMessage got = watcher.request(tournament_command(id, false));
    if (got.result() == OK) {
      detail = got.tournament();
      if (detail.summary().status() == TOURNAMENT_FINISHED) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  REQUIRE(detail.summary().status() == TOURNAMENT_FINISHED);
  REQUIRE(detail.standings_size() == 2);
  CHECK(detail.standings(0).name() == (ann_seat_one ? "ben" : "ann"));
  CHECK(detail.standings(0).wins() == 1);
  CHECK(detail.standings(1).wins() == 0);
  CHECK(b->alive());
}
