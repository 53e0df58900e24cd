// SIGTERM drains against the real binary: while matches are being played the server is sent
// SIGTERM; /readyz turns false while /healthz stays up, no new connection is taken, every client
// is told why (a ServerClosing message, then WebSocket close code 1012), the server exits by
// itself, and after a restart on the same data every match resumes with every action it had
// acknowledged at its place.
#include <catch2/catch.hpp>
#include <thread>

#include "play_helpers.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage resume_hello(const std::string& token) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_resume_token(token);
  return m;
}

bool told_closing(WsClient& client) {
  for (const auto& m : client.pushed()) {
    if (m.has_closing() && !m.closing().reason().empty()) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("SIGTERM drains: clients are told, matches resume, no acknowledged action is lost") {
  const auto registry = engine::builtin_registry();
  const auto data = temp_data_dir("drain");
  const std::vector<std::string> flags = {"--grace", "300", "--drain-seconds", "3"};
  constexpr int kMatches = 9;
  std::vector<Played> played(kMatches);
  std::vector<std::unique_ptr<WsClient>> clients;
  {
    ServerProcess server(flags, data, true);
    for (int i = 0; i < kMatches; ++i) {
      const auto& info = registry.all()[static_cast<size_t>(i) % registry.all().size()];
      auto c = std::make_unique<WsClient>();
      c->connect("127.0.0.1", server.port());
      auto welcome = c->hello(std::string("D").append(std::to_string(i)));
      REQUIRE(welcome.result() == OK);
      played[i].token = welcome.welcome().resume_token();
      auto created = c->request(create_match(info.name, info.min_seats, true, info.min_seats - 1));
      REQUIRE(created.result() == OK);
      played[i].match = created.created().match().match_id();
      played[i].ruleset = info.name;
      clients.push_back(std::move(c));
    }
    // One client that reads nothing during the drain, so the drain lasts its full 3 seconds.
    auto idle = connect_as(server.port(), "Idle");
    std::vector<std::thread> players;
    for (int i = 0; i < kMatches; ++i) {
      const auto* info = registry.find(played[i].ruleset);
      players.emplace_back([&, i, info] {
        play_seat0(*clients[i], *info, played[i], static_cast<uint64_t>(i + 1));
      });
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto under_way = [&] {
      for (const Played& p : played) {
        if (p.acks < 3 && !p.done) return false;
      }
      return true;
    };
    while (!under_way() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    server.signal(SIGTERM);
    // Draining: alive, not ready, and no new match.
    bool draining = false;
    for (int tries = 0; tries < 100 && !draining; ++tries) {
      draining = http_get(server.port(), "/readyz").status == 503;
      if (!draining) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(draining);
    CHECK(http_get(server.port(), "/healthz").status == 200);
    // No new connection, so no new match (the hub refuses one with SERVER_DRAINING too: the
    // dispatch tests check that).
    WsClient late;
    CHECK_THROWS(late.connect("127.0.0.1", server.port()));
    for (auto& t : players) t.join();
    CHECK(server.wait_exit() == 0);
  }
  int in_play = 0;
  for (int i = 0; i < kMatches; ++i) {
    INFO("match " << played[i].match << " (" << played[i].ruleset << ")");
    const auto* t = clients[i]->tracker().find(played[i].match);
    REQUIRE(t != nullptr);
    if (t->ended) continue;
    ++in_play;
    CHECK(told_closing(*clients[i]));
    CHECK(clients[i]->close_code() == 1012);
  }
  CHECK(in_play > kMatches / 2);

  {
    ServerProcess server(flags, data, true);
    for (int i = 0; i < kMatches; ++i) {
      INFO("match " << played[i].match << " (" << played[i].ruleset << ")");
      if (clients[i]->tracker().find(played[i].match)->ended) continue;
      const uint64_t seen = clients[i]->tracker().find(played[i].match)->seq;
      auto client = std::make_unique<WsClient>();
      client->connect("127.0.0.1", server.port());
      auto welcome = client->request(resume_hello(played[i].token));
      REQUIRE(welcome.result() == OK);
      CHECK(welcome.welcome().resumed());
      auto snapshot = client->request(resync(played[i].match));
      REQUIRE(snapshot.has_snapshot());
      CHECK(snapshot.snapshot().seq() >= seen);
      if (!played[i].acknowledged.empty()) {
        CHECK(snapshot.snapshot().seq() > played[i].acknowledged.back().first);
      }
    }
    server.stop_cleanly();
  }

  // Every acknowledged action is in the store at its place.
  storage::SqliteMatchStore store((data / "duelhall.db").string());
  for (const Played& p : played) {
    INFO("match " << p.match << " (" << p.ruleset << ")");
    auto stored = store.load_match(static_cast<storage::MatchId>(p.match));
    REQUIRE(stored.has_value());
    for (const auto& [seq, code] : p.acknowledged) {
      INFO("acknowledged at seq " << seq << ": " << code);
      if (seq == 0) {
        auto first = std::find_if(stored->steps.begin(), stored->steps.end(),
                                  [](const engine::Step& s) { return s.seat == 0; });
        REQUIRE(first != stored->steps.end());
        CHECK(first->action.code() == code);
        continue;
      }
      REQUIRE(seq < stored->steps.size());
      CHECK(stored->steps[seq].seat == 0);
      CHECK(stored->steps[seq].action.code() == code);
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(data, ec);
}
