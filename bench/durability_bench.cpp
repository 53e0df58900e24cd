// The cost of durability in the server, in-process (hub, matches on strands, dispatch; no
// sockets): the same load - human-seat matches played to the end by in-process clients that
// parse every frame, apply every diff and answer with the first legal action - once with the
// in-memory action log and once with the SQLite store through GroupCommitLog
// (synchronous=FULL: each action's diffs are sent only once its transaction is fsynced),
// alternating, several runs; prints each run and the medians of player actions per second.
// With --database postgresql://..., the durable log is the PostgreSQL store instead (its tables
// are emptied before each run).
//
// Usage: durability_bench [--runs 5] [--matches 200] [--ruleset NAME] [--dir /tmp]
//                         [--database URL]
#include <spdlog/spdlog.h>

#include <unistd.h>
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "lobby/dispatch.hpp"
#include "lobby/hub.hpp"
#include "match/durable_log.hpp"
#include "match_tracker.hpp"
#include "net/messages.hpp"
#include "storage/group_commit.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/postgres/postgres_match_store.hpp"

using namespace duelhall;
using namespace duelhall::server;
using Clock = std::chrono::steady_clock;

namespace {

class QueuePeer final : public Peer {
 public:
  explicit QueuePeer(uint64_t id) : id_(id) {}
  void send(Frame frame) override {
    std::lock_guard lock(mutex_);
    frames_.push_back(std::move(frame));
  }
  void close(const std::string&) override {}
  uint64_t peer_id() const override { return id_; }
  std::vector<Frame> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(frames_, {});
  }

 private:
  uint64_t id_;
  std::mutex mutex_;
  std::vector<Frame> frames_;
};

struct Seat {
  std::shared_ptr<QueuePeer> peer;
  std::unique_ptr<ClientState> state;
  client::MatchTracker tracker;
};

struct RunResult {
  long long actions = 0;
  double seconds = 0;
  double per_second() const { return static_cast<double>(actions) / seconds; }
};

// Plays `matches` two-seat human matches to the end on a fresh hub with `logs`.
RunResult play(const engine::Registry& registry, const std::string& ruleset, int matches,
               std::shared_ptr<ActionLogFactory> logs) {
  Config config;
  config.limits.max_matches = 1'000'000;
  boost::asio::io_context io;
  auto hub = std::make_shared<Hub>(io, registry, config, std::move(logs));
  Dispatcher dispatcher(*hub);
  auto work = boost::asio::make_work_guard(io);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) threads.emplace_back([&io] { io.run(); });

  uint64_t next_peer = 1;
  auto send = [&](Seat& s, const ClientMessage& m) {
    Outbox out;
    dispatcher.dispatch(s.peer, *s.state, m, out);
    out.flush();
  };
  std::vector<Seat> players(2 * static_cast<size_t>(matches));
  for (auto& s : players) {
    s.peer = std::make_shared<QueuePeer>(next_peer++);
    s.state = std::make_unique<ClientState>(config.limits);
    ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(kProtocolVersion);
    hello.mutable_hello()->set_display_name("p");
    send(s, hello);
    s.peer->take();
  }
  std::vector<uint64_t> ids;
  for (int i = 0; i < matches; ++i) {
    Seat& a = players[2 * static_cast<size_t>(i)];
    Seat& b = players[2 * static_cast<size_t>(i) + 1];
    ClientMessage create;
    create.set_request_id(1);
    create.mutable_create_match()->mutable_settings()->set_ruleset(ruleset);
    create.mutable_create_match()->mutable_settings()->set_seats(2);
    create.mutable_create_match()->set_join(true);
    send(a, create);
    uint64_t id = 0;
    for (auto& f : a.peer->take()) {
      ServerMessage m;
      m.ParseFromString(*f);
      if (m.has_created()) id = m.created().match().match_id();
    }
    ClientMessage join;
    join.set_request_id(2);
    join.mutable_join_match()->set_match_id(id);
    join.mutable_join_match()->set_seat(1);
    send(b, join);
    ids.push_back(id);
  }
  RunResult result;
  int finished = 0;
  std::vector<bool> done(players.size(), false);
  uint64_t request = 10;
  const auto start = Clock::now();
  while (finished < 2 * matches) {
    bool idle = true;
    for (size_t p = 0; p < players.size(); ++p) {
      if (done[p]) continue;
      Seat& s = players[p];
      const uint64_t id = ids[p / 2];
      for (auto& f : s.peer->take()) {
        idle = false;
        ServerMessage m;
        m.ParseFromString(*f);
        client::normalize_update(m);
        s.tracker.handle(m);
      }
      auto* t = s.tracker.find(id);
      if (!t) continue;
      if (t->ended) {
        done[p] = true;
        ++finished;
        continue;
      }
      if (t->legal.empty()) continue;
      ClientMessage act;
      act.set_request_id(++request);
      act.mutable_action()->set_match_id(id);
      act.mutable_action()->set_code(t->legal.front().code());
      act.mutable_action()->set_seq(t->seq);
      t->legal.clear();  // answered; the next update brings the next choice
      send(s, act);
      ++result.actions;
    }
    // Idle clients sleep rather than spin: remote clients take no server CPU while waiting.
    if (idle) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  work.reset();
  io.stop();
  for (auto& t : threads) t.join();
  return result;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  int matches = 200;
  std::string ruleset;
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string database;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    if (flag == "--matches") matches = std::atoi(argv[i + 1]);
    if (flag == "--ruleset") ruleset = argv[i + 1];
    if (flag == "--dir") dir = argv[i + 1];
    if (flag == "--database") database = argv[i + 1];
  }
  spdlog::set_level(spdlog::level::warn);
  const auto registry = engine::builtin_registry();
  if (registry.all().empty()) return 1;
  if (ruleset.empty()) ruleset = registry.all().front().name;
  std::vector<double> memory, durable;
  for (int r = 0; r < runs; ++r) {
    const RunResult in_memory =
        play(registry, ruleset, matches, std::make_shared<MemoryActionLogFactory>());
    const auto path = dir / ("durability-bench-" + std::to_string(::getpid()) + ".db");
    RunResult stored;
    storage::GroupCommitStats stats;
    {
      std::unique_ptr<storage::MatchStore> store;
      if (database.empty()) {
        store = std::make_unique<storage::SqliteMatchStore>(path.string());
      } else {
        store = std::make_unique<storage::PostgresMatchStore>(database);
        storage::PgConnection(database).exec(
            "TRUNCATE matches, match_seats, actions, match_owners; UPDATE match_ids SET last = 0");
      }
      storage::GroupCommitLog log(*store);
      stored = play(registry, ruleset, matches, std::make_shared<DurableLogFactory>(log));
      stats = log.stats();
    }
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
    memory.push_back(in_memory.per_second());
    durable.push_back(stored.per_second());
    std::printf(
        "run %d: in memory %lld actions in %.2f s = %.0f/s; %s %lld actions in %.2f s ="
        " %.0f/s (%.1f writes per transaction, writer thread CPU %.1f us per write)\n",
        r + 1, in_memory.actions, in_memory.seconds, in_memory.per_second(),
        database.empty() ? "SQLite FULL" : "PostgreSQL", stored.actions, stored.seconds,
        stored.per_second(),
        static_cast<double>(stats.appended) /
            static_cast<double>(std::max<int64_t>(stats.batches, 1)),
        1e6 * stats.writer_cpu_seconds / static_cast<double>(std::max<int64_t>(stats.appended, 1)));
  }
  const double m = median(memory), d = median(durable);
  std::printf(
      "%s, %d matches in flight, medians of %d runs: in memory %.0f actions/s, durable %.0f"
      " actions/s: %.1f%% of throughput lost\n",
      ruleset.c_str(), matches, runs, m, d, 100.0 * (m - d) / m);
  return 0;
}
