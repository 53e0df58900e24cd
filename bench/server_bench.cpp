// Server core benchmark, in-process (hub, matches on strands, dispatch; no sockets): for the
// first registered ruleset,
//  - memory: resident memory per live two-player match with two human seats (started, each
//    seat holding its view and its held updates), from the RSS difference over many matches;
//  - after play, the same per match with every seat's held updates full;
//  - throughput: human-seat matches played to the end by in-process clients that parse every
//    frame, apply every diff and answer with the first legal action (2 I/O threads, the
//    clients on the calling thread): player actions per second and bytes per seat update.
//
// Usage: server_bench [matches=2000] [played=200]
#include <sys/resource.h>

#include <spdlog/spdlog.h>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>

#include "lobby/dispatch.hpp"
#include "lobby/hub.hpp"
#include "match_tracker.hpp"
#include "net/messages.hpp"

using namespace duelhall;
using namespace duelhall::server;
using Clock = std::chrono::steady_clock;

namespace {

long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

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

ClientMessage hello(const std::string& name) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(kProtocolVersion);
  m.mutable_hello()->set_display_name(name);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const int matches = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int played = argc > 2 ? std::atoi(argv[2]) : 200;
  spdlog::set_level(spdlog::level::warn);
  const auto registry = engine::builtin_registry();
  if (registry.all().empty()) return 1;
  const std::string ruleset = registry.all().front().name;
  Config config;
  config.limits.max_matches = 1'000'000;
  boost::asio::io_context io;
  auto hub =
      std::make_shared<Hub>(io, registry, config, std::make_shared<MemoryActionLogFactory>());
  Dispatcher dispatcher(*hub);
  auto work = boost::asio::make_work_guard(io);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) threads.emplace_back([&io] { io.run(); });

  uint64_t next_peer = 1;
  auto make_seat = [&](const std::string& name) {
    Seat s;
    s.peer = std::make_shared<QueuePeer>(next_peer++);
    s.state = std::make_unique<ClientState>(config.limits);
    Outbox out;
    dispatcher.dispatch(s.peer, *s.state, hello(name), out);
    out.flush();
    return s;
  };
  auto open_match = [&](Seat& a, Seat& b) {
    ClientMessage create;
    create.set_request_id(1);
    create.mutable_create_match()->mutable_settings()->set_ruleset(ruleset);
    create.mutable_create_match()->mutable_settings()->set_seats(2);
    create.mutable_create_match()->set_join(true);
    Outbox out;
    dispatcher.dispatch(a.peer, *a.state, create, out);
    out.flush();
    // The reply is the last frame; the match id is in it.
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
    dispatcher.dispatch(b.peer, *b.state, join, out);
    out.flush();
    return id;
  };

  // Memory: live started matches with two human seats each.
  std::vector<Seat> seats;
  seats.reserve(2 * static_cast<size_t>(matches));
  for (int i = 0; i < 2 * matches; ++i) seats.push_back(make_seat("p"));
  const long before = rss_kib();
  for (int i = 0; i < matches; ++i) open_match(seats[2 * i], seats[2 * i + 1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (auto& s : seats) s.peer->take();  // the snapshots were sent; clients own them now
  const long after = rss_kib();
  std::printf("%s: %d live 2-seat human matches: %.1f KiB resident per match (players included)\n",
              ruleset.c_str(), matches, static_cast<double>(after - before) / matches);

  // Throughput: `played` matches, every seat answering its updates.
  std::vector<Seat> players;
  for (int i = 0; i < 2 * played; ++i) players.push_back(make_seat("q"));
  for (auto& s : players) s.peer->take();
  const long before_play = rss_kib();
  std::vector<uint64_t> ids;
  for (int i = 0; i < played; ++i) ids.push_back(open_match(players[2 * i], players[2 * i + 1]));
  long long actions = 0;
  long long update_bytes = 0;
  long long updates = 0;
  long long view_bytes = 0;
  int finished = 0;
  const auto start = Clock::now();
  std::vector<bool> done(players.size(), false);
  uint64_t request = 10;
  while (finished < 2 * played) {
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
        if (m.has_update()) {
          ++updates;
          update_bytes += static_cast<long long>(f->size());
        }
        s.tracker.handle(m);
      }
      auto* t = s.tracker.find(id);
      if (!t) continue;
      if (t->ended) {
        done[p] = true;
        ++finished;
        view_bytes += static_cast<long long>(t->view.size());
        continue;
      }
      if (t->legal.empty()) continue;
      ClientMessage act;
      act.set_request_id(++request);
      act.mutable_action()->set_match_id(id);
      act.mutable_action()->set_code(t->legal.front().code());
      act.mutable_action()->set_seq(t->seq);
      t->legal.clear();  // answered; the next update brings the next choice
      Outbox out;
      dispatcher.dispatch(s.peer, *s.state, act, out);
      out.flush();
      ++actions;
    }
    if (idle) std::this_thread::yield();
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "%s: %d matches played by in-process clients: %lld actions in %.2f s = %.0f actions/s;"
      " %.1f bytes per seat update frame; final views %.1f bytes\n",
      ruleset.c_str(), played, actions, secs, actions / secs,
      static_cast<double>(update_bytes) / updates,
      static_cast<double>(view_bytes) / (2.0 * played));
  // The clients' own copies (views, event logs) are not the server's memory.
  for (size_t p = 0; p < players.size(); ++p) players[p].tracker.forget(ids[p / 2]);
  // Finished matches stay in memory while listed (finished_linger_seconds), with each seat's
  // view and held updates: an upper bound for a match in progress.
  std::printf("%s: %.1f KiB resident per played match (views and held updates at their fullest)\n",
              ruleset.c_str(), static_cast<double>(rss_kib() - before_play) / played);
  work.reset();
  io.stop();
  for (auto& t : threads) t.join();
  return 0;
}
