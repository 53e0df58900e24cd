// Crash recovery against the real binary: the server is killed with SIGKILL while many matches
// are being played, restarted on the same data folder (or the same PostgreSQL database, with
// --database), and the players reconnect with their tokens and play on. Every action the server
// acknowledged must be in the stored log, every match must resume and finish, and every player's
// view must be what it had, or, when the server had stored later steps it had not yet sent, the
// stored log's view at the player's seq.
#include <atomic>
#include <mutex>
#include <thread>

#include "core/bot.hpp"
#include "core/registry.hpp"
#include "helpers.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "storage/postgres/postgres_match_store.hpp"
#include "support/throwaway_postgres.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

struct Played {
  uint64_t match = 0;
  std::string ruleset;
  std::string token;
  int seats = 0;
  // (index in the match's history, action code) of every action the server answered OK.
  std::vector<std::pair<uint64_t, uint64_t>> acknowledged;
  std::atomic<int> acks{0};
  std::atomic<bool> done{false};
  uint64_t seq_at_crash = 0;
  std::string view_at_crash;
};

// Plays random legal actions for seat 0 until the match ends or the connection dies.
void play(WsClient& client, const engine::RulesetInfo& info, Played& played, uint64_t seed) {
  engine::Rng rng(engine::seed_from_number(seed));
  try {
    while (true) {
      if (!client.wait_until(
              [&] {
                auto* t = client.tracker().find(played.match);
                return t && (t->ended || !t->legal.empty());
              },
              std::chrono::seconds(20))) {
        return;
      }
      auto* t = client.tracker().find(played.match);
      if (t->ended) return;
      std::vector<engine::Action> legal;
      for (const auto& a : t->legal) legal.push_back(engine::Action::from_code(a.code()));
      engine::drop_avoided(legal, info.resign_kinds);
      const uint64_t code = legal[rng.below(static_cast<uint32_t>(legal.size()))].code();
      const uint64_t seq = t->seq;
      auto reply = client.request(action(played.match, code, seq));
      if (reply.result() == OK) {
        played.acknowledged.emplace_back(seq, code);
        ++played.acks;
      }
    }
  } catch (const std::exception&) {
    // The server died under us: what the client has now is what it saw.
  }
  played.done = true;
}

std::unique_ptr<WsClient> connect_with_token(uint16_t port, const std::string& name,
                                             std::string& token) {
  auto c = std::make_unique<WsClient>();
  c->connect("127.0.0.1", port);
  auto welcome = c->hello(name);
  REQUIRE(welcome.result() == OK);
  token = welcome.welcome().resume_token();
  return c;
}

}  // namespace

TEST_CASE(
    "a server killed with SIGKILL mid-play resumes every match and loses no acknowledged action") {
  const auto registry = engine::builtin_registry();
  // Both sync modes keep what was acknowledged through a crash of the process: "normal" only
  // gives up what a crash of the whole machine would take. "postgresql": the matches are in a
  // throw-away PostgreSQL database (--database), which outlives the server.
  const std::string sync = GENERATE("full", "normal", "postgresql");
  CAPTURE(sync);
  const auto data = temp_data_dir("crash-" + sync);
  std::vector<std::string> flags = {"--grace", "300", "--sync", "full"};
  std::string database;
  if (sync == "postgresql") {
    database = ThrowawayPostgres::shared().new_database();
    flags.insert(flags.end(), {"--database", database});
  } else {
    flags[3] = sync;
  }
  constexpr int kMatches = 12;
  std::vector<Played> played(kMatches);
  std::vector<std::unique_ptr<WsClient>> clients;
  {
    ServerProcess server(flags, data, true);
    for (int i = 0; i < kMatches; ++i) {
      const auto& info = registry.all()[static_cast<size_t>(i) % registry.all().size()];
      clients.push_back(connect_with_token(
          server.port(), std::string("P").append(std::to_string(i)), played[i].token));
      auto created = clients.back()->request(
          create_match(info.name, info.min_seats, true, info.min_seats - 1));
      REQUIRE(created.result() == OK);
      played[i].match = created.created().match().match_id();
      played[i].ruleset = info.name;
      played[i].seats = info.min_seats;
      // The commitment is published from the start, the seed only at the end.
      REQUIRE(clients.back()->wait_until([&] {
        for (const auto& m : clients.back()->pushed()) {
          if (m.has_snapshot() && !m.snapshot().match().seed_commitment().empty()) return true;
        }
        return false;
      }));
    }
    std::vector<std::thread> players;
    for (int i = 0; i < kMatches; ++i) {
      const auto* info = registry.find(played[i].ruleset);
      players.emplace_back(
          [&, i, info] { play(*clients[i], *info, played[i], static_cast<uint64_t>(i + 1)); });
    }
    // The kill comes once every match is a few actions in, while all are being played.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto under_way = [&] {
      for (const Played& p : played) {
        if (p.acks < 4 && !p.done) return false;
      }
      return true;
    };
    while (!under_way() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    server.kill_hard();
    for (auto& t : players) t.join();
  }
  int resumed = 0;
  for (int i = 0; i < kMatches; ++i) {
    const auto* t = clients[i]->tracker().find(played[i].match);
    REQUIRE(t != nullptr);
    REQUIRE_FALSE(t->broken);
    played[i].seq_at_crash = t->seq;
    played[i].view_at_crash = t->view;
    resumed += t->ended ? 0 : 1;
  }
  CHECK(resumed > kMatches / 2);  // most matches were in the middle of play

  {
    ServerProcess server(flags, data, true);
    auto watcher = connect_as(server.port(), "Watcher");
    for (int i = 0; i < kMatches; ++i) {
      INFO("match " << played[i].match << " (" << played[i].ruleset << ")");
      if (clients[i]->tracker().find(played[i].match)->ended) continue;
      auto client = std::make_unique<WsClient>();
      client->connect("127.0.0.1", server.port());
      auto welcome =
          client->request(resume_hello(played[i].token, played[i].match, played[i].seq_at_crash));
      REQUIRE(welcome.result() == OK);
      CHECK(welcome.welcome().resumed());
      REQUIRE(welcome.welcome().matches_size() == 1);
      CHECK(welcome.welcome().matches(0) == played[i].match);
      auto snapshot = client->request(resync(played[i].match));
      REQUIRE(snapshot.has_snapshot());
      CHECK(snapshot.snapshot().seat() == 0);
      // Nothing the player saw is lost; what it saw is still its view at that point.
      REQUIRE(snapshot.snapshot().seq() >= played[i].seq_at_crash);
      if (snapshot.snapshot().seq() == played[i].seq_at_crash) {
        CHECK(snapshot.snapshot().view() == played[i].view_at_crash);
      }
      CHECK_FALSE(snapshot.snapshot().match().seed_commitment().empty());
      // A match may have ended just before the kill, its end stored but not yet shown: it is
      // back ended (its seed revealed), shown to the player who comes back.
      CHECK(snapshot.snapshot().match().seed().empty() == !snapshot.snapshot().has_outcome());
      // Spectators can re-attach.
      auto watched = watcher->request(spectate(played[i].match));
      CHECK(watched.result() == OK);
      CHECK(watched.has_snapshot());
      clients[i] = std::move(client);
    }
    std::vector<std::thread> players;
    for (int i = 0; i < kMatches; ++i) {
      if (clients[i]->tracker().find(played[i].match) == nullptr) continue;
      if (clients[i]->tracker().find(played[i].match)->ended) continue;
      const auto* info = registry.find(played[i].ruleset);
      played[i].done = false;
      players.emplace_back(
          [&, i, info] { play(*clients[i], *info, played[i], static_cast<uint64_t>(100 + i)); });
    }
    for (auto& t : players) t.join();
    for (int i = 0; i < kMatches; ++i) {
      const auto* t = clients[i]->tracker().find(played[i].match);
      REQUIRE(t != nullptr);
      CHECK(t->ended);
      CHECK(t->status == FINISHED);
    }
    server.stop_cleanly();
  }

  // The store: every acknowledged action at its place, every match finished, and each player's
  // view at the crash is the stored log's view at that point.
  std::unique_ptr<storage::MatchStore> store;
  if (database.empty()) {
    store = std::make_unique<storage::SqliteMatchStore>((data / "duelhall.db").string());
  } else {
    CHECK_FALSE(std::filesystem::exists(data / "duelhall.db"));  // nothing went to SQLite
    store = std::make_unique<storage::PostgresMatchStore>(database);
  }
  for (const Played& p : played) {
    INFO("match " << p.match << " (" << p.ruleset << ")");
    auto stored = store->load_match(static_cast<storage::MatchId>(p.match));
    REQUIRE(stored.has_value());
    CHECK(stored->summary.status == storage::MatchStatus::kFinished);
    for (const auto& [index, code] : p.acknowledged) {
      INFO("acknowledged at seq " << index << ": " << code);
      if (index == 0) {
        // Seq 0 skips the staleness check: the first action lands wherever seat 0 first acted.
        auto first = std::find_if(stored->steps.begin(), stored->steps.end(),
                                  [](const engine::Step& s) { return s.seat == 0; });
        REQUIRE(first != stored->steps.end());
        CHECK(first->action.code() == code);
        continue;
      }
      REQUIRE(index < stored->steps.size());
      CHECK(stored->steps[index].seat == 0);
      CHECK(stored->steps[index].action.code() == code);
    }
    std::vector<engine::Step> prefix(
        stored->steps.begin(), stored->steps.begin() + static_cast<std::ptrdiff_t>(p.seq_at_crash));
    std::string error;
    auto state = engine::replay(registry, stored->config, prefix, error);
    REQUIRE(state != nullptr);
    CHECK(state->view(engine::Viewer::of_seat(0)) == p.view_at_crash);
  }
  std::filesystem::remove_all(data);
}
