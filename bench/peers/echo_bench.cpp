// The physical reference for the server benchmark: a bare Boost.Beast WebSocket server that does
// what Duelhall's action path does on the wire and nothing else. Connections pair up in accept
// order (a "match"); a binary frame from one is answered by one frame of --update bytes to it and
// one to its partner, like an action's two updates. No game, no protocol buffers, no store.
//
//   duelhall-echo-bench serve PORT [--threads N]
//   duelhall-echo-bench drive PORT --pairs N --action A --update U --seconds S [--server-pid P]
//                             [--rate R]
//
// The driver plays every pair as fast as possible (the partner acts as soon as the update
// arrives, the closed loop of duelhall-loadgen's fast mode), or with --rate R as open load (R
// actions per pair per second at fixed intervals, as duelhall-loadgen --rate), and prints
// actions per second, p50/p99/p99.9 from an action to the partner's update, the server's and its
// own CPU per action and the server's memory per live pair.
#include <sys/resource.h>

#include <unistd.h>
#include <algorithm>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace net = boost::asio;
namespace beast = boost::beast;
namespace ws = beast::websocket;
using tcp = net::ip::tcp;

namespace {

size_t g_update = 64;

class ServerConn : public std::enable_shared_from_this<ServerConn> {
 public:
  explicit ServerConn(tcp::socket s) : ws_(std::move(s)) {}
  std::weak_ptr<ServerConn> partner;
  void start() {
    ws_.binary(true);
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }
  void send(std::shared_ptr<const std::string> frame) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frame] {
      self->queue_.push_back(frame);
      if (self->queue_.size() == 1) self->write();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->buffer_.consume(self->buffer_.size());
      auto frame = std::make_shared<const std::string>(g_update, 'u');
      self->send(frame);
      if (auto p = self->partner.lock()) p->send(frame);
      self->read();
    });
  }
  void write() {
    ws_.async_write(net::buffer(*queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return;
                      self->queue_.erase(self->queue_.begin());
                      if (!self->queue_.empty()) self->write();
                    });
  }
  ws::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::vector<std::shared_ptr<const std::string>> queue_;
};

int serve(unsigned short port, int threads) {
  net::io_context io(threads);
  tcp::acceptor acceptor(io, {net::ip::make_address("127.0.0.1"), port});
  std::shared_ptr<ServerConn> waiting;
  std::function<void()> accept = [&] {
    acceptor.async_accept(net::make_strand(io), [&](beast::error_code ec, tcp::socket s) {
      if (!ec) {
        auto c = std::make_shared<ServerConn>(std::move(s));
        if (waiting) {
          c->partner = waiting;
          waiting->partner = c;
          waiting.reset();
        } else {
          waiting = c;
        }
        c->start();
      }
      accept();
    });
  };
  accept();
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { io.run(); });
  io.run();
  for (auto& t : pool) t.join();
  return 0;
}

double process_cpu_seconds(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string s((std::istreambuf_iterator<char>(f)), {});
  const auto close = s.rfind(')');
  if (close == std::string::npos) return 0;
  std::vector<std::string> fields;
  std::string cur;
  for (char ch : s.substr(close + 2)) {
    if (ch == ' ') {
      fields.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (fields.size() < 13) return 0;
  return static_cast<double>(std::stol(fields[11]) + std::stol(fields[12])) /
         static_cast<double>(sysconf(_SC_CLK_TCK));
}

long rss_kib(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

using Clock = std::chrono::steady_clock;

struct Driver {
  net::io_context io;
  std::string action;
  uint64_t actions = 0;
  bool recording = false;
  Clock::duration interval{};  // zero: as fast as possible
  std::vector<uint32_t> latency_us;
};

// One seat: reads every frame; a frame caused by the partner's action is this seat's turn.
class Seat : public std::enable_shared_from_this<Seat> {
 public:
  Seat(Driver& d) : d_(d), ws_(d.io), pace_(d.io) {}
  Seat* partner = nullptr;
  bool my_turn = false;
  Clock::time_point sent;
  Clock::time_point next_at;  // open load: when this pair's next action is due
  void open(tcp::endpoint ep, std::function<void()> done) {
    ws_.next_layer().connect(ep);
    ws_.handshake("127.0.0.1", "/");
    ws_.binary(true);
    done();
  }
  void start() { read(); }
  void act() {
    if (d_.interval == Clock::duration::zero()) return write_action();
    next_at = std::max(partner->next_at, Clock::now());
    pace_.expires_at(next_at);
    pace_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->write_action();
    });
  }
  void write_action() {
    next_at += d_.interval;
    sent = Clock::now();
    ws_.async_write(net::buffer(d_.action), [](beast::error_code, size_t) {});
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->buffer_.consume(self->buffer_.size());
      // Each connection sees its own action's echo before the partner's next update (the
      // partner acts only once it has the update this action caused).
      if (self->my_turn) {
        self->my_turn = false;  // our echo
      } else {
        if (self->d_.recording) {
          ++self->d_.actions;
          self->d_.latency_us.push_back(
              static_cast<uint32_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                        Clock::now() - self->partner->sent)
                                        .count()));
        }
        self->my_turn = true;
        self->act();
      }
      self->read();
    });
  }
  Driver& d_;
  ws::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  net::steady_timer pace_;
};

int drive(unsigned short port, int pairs, size_t action_bytes, double seconds, long server_pid,
          double rate) {
  Driver d;
  d.action.assign(action_bytes, 'a');
  if (rate > 0) d.interval = std::chrono::nanoseconds(static_cast<int64_t>(1e9 / rate));
  tcp::endpoint ep(net::ip::make_address("127.0.0.1"), port);
  const long rss_before = server_pid ? rss_kib(server_pid) : 0;
  std::vector<std::shared_ptr<Seat>> seats;
  for (int i = 0; i < 2 * pairs; ++i) {
    seats.push_back(std::make_shared<Seat>(d));
    seats.back()->open(ep, [] {});
  }
  const long rss_open = server_pid ? rss_kib(server_pid) : 0;
  for (int i = 0; i < pairs; ++i) {
    seats[2 * i]->partner = seats[2 * i + 1].get();
    seats[2 * i + 1]->partner = seats[2 * i].get();
  }
  for (auto& s : seats) s->start();
  for (int i = 0; i < pairs; ++i) {
    // Open load: the pairs' first actions spread over one interval.
    seats[2 * i]->next_at = Clock::now() + d.interval * (i % 1000) / 1000;
    seats[2 * i + 1]->next_at = seats[2 * i]->next_at;
    seats[2 * i]->my_turn = true;
    seats[2 * i]->act();
  }
  d.io.run_for(std::chrono::seconds(1));  // warm-up
  rusage own0{};
  getrusage(RUSAGE_SELF, &own0);
  const double server0 = server_pid ? process_cpu_seconds(server_pid) : 0;
  d.recording = true;
  const auto t0 = std::chrono::steady_clock::now();
  d.io.run_for(std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000)));
  const double window =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  d.recording = false;
  const double server_cpu = server_pid ? process_cpu_seconds(server_pid) - server0 : 0;
  rusage own1{};
  getrusage(RUSAGE_SELF, &own1);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  const double own_cpu =
      secs(own1.ru_utime) - secs(own0.ru_utime) + secs(own1.ru_stime) - secs(own0.ru_stime);
  const double n = static_cast<double>(std::max<uint64_t>(d.actions, 1));
  double load[1] = {0};
  getloadavg(load, 1);
  auto& lat = d.latency_us;
  std::sort(lat.begin(), lat.end());
  auto pct = [&](double p) {
    return lat.empty() ? 0.0
                       : lat[std::min(lat.size() - 1, static_cast<size_t>(p * lat.size()))] / 1e3;
  };
  std::printf(
      "RESULT peer=echo pairs=%d rate=%g actions_per_s=%.0f p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f "
      "server_cpu_us_per_action=%.1f loadgen_cpu_us_per_action=%.1f rss_per_match_kib=%.2f "
      "load_avg=%.1f\n",
      pairs, rate, static_cast<double>(d.actions) / window, pct(0.5), pct(0.99), pct(0.999),
      1e6 * server_cpu / n, 1e6 * own_cpu / n,
      pairs ? static_cast<double>(rss_open - rss_before) / pairs : 0, load[0]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: duelhall-echo-bench serve PORT [--threads N] | drive PORT --pairs N "
                 "--action A --update U --seconds S [--server-pid P] [--rate R]\n";
    return 2;
  }
  const std::string mode = argv[1];
  const auto port = static_cast<unsigned short>(std::stoi(argv[2]));
  int threads = 2, pairs = 1000;
  size_t action = 20;
  double seconds = 10;
  long pid = 0;
  double rate = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--threads") threads = std::stoi(v);
    if (k == "--pairs") pairs = std::stoi(v);
    if (k == "--action") action = std::stoul(v);
    if (k == "--update") g_update = std::stoul(v);
    if (k == "--seconds") seconds = std::stod(v);
    if (k == "--server-pid") pid = std::stol(v);
    if (k == "--rate") rate = std::stod(v);
  }
  if (mode == "serve") return serve(port, threads);
  return drive(port, pairs, action, seconds, pid, rate);
}
