#include "idle_connections.hpp"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "connection.hpp"
#include "shard_threads.hpp"
#include "stats.hpp"

namespace duelhall::loadgen {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

// Counts every thread reads; only atomics.
struct Counts {
  std::atomic<uint32_t> welcomed{0};  // said Hello and got their Welcome
  std::atomic<uint32_t> failed{0};    // never got that far (connect, handshake, refusal)
  std::atomic<uint32_t> lost{0};      // welcomed, then closed by the server
  std::atomic<bool> stopping{false};
};

// One thread's share: its connections, opened at most max_opening at a time.
class IdleShard {
 public:
  IdleShard(Counts& counts, net::ip::tcp::endpoint endpoint, uint32_t connections,
            uint32_t max_opening, uint32_t protocol)
      : counts_(counts),
        endpoint_(endpoint),
        to_open_(connections),
        max_opening_(max_opening),
        protocol_(protocol) {
    connections_.reserve(connections);
  }

  net::io_context io{1};

  void start_some() {
    while (opening_ < max_opening_ && connections_.size() < to_open_ && !counts_.stopping) {
      ++opening_;
      open_one(connections_.size());
    }
  }

  void stop() {
    for (auto& c : connections_) c->close();
  }

 private:
  // A connection's setup is over, either way: the next one may start.
  void set_up_done(bool welcomed) {
    ++(welcomed ? counts_.welcomed : counts_.failed);
    --opening_;
    start_some();
  }

  void open_one(size_t i) {
    auto connection = std::make_shared<Connection>(io);
    connections_.push_back(connection);
    welcomed_.push_back(false);
    connection->open(
        endpoint_,
        [this, i](const std::string& error) {
          if (!error.empty()) {
            report(error);
            return set_up_done(false);
          }
          ClientMessage hello;
          hello.mutable_hello()->set_protocol_version(protocol_);
          hello.mutable_hello()->set_display_name("idle" + std::to_string(i));
          connections_[i]->send(std::move(hello));
        },
        [this, i](const ServerMessage& m, size_t) {
          if (welcomed_[i] || m.request_id() == 0) return;
          if (m.result() == OK && m.has_welcome()) {
            welcomed_[i] = true;
            return set_up_done(true);
          }
          report(std::string("Hello refused: ") + ResultCode_Name(m.result()) + ": " + m.reason());
          connections_[i]->close();
          set_up_done(false);
        },
        [this, i](const std::string& why) {
          if (counts_.stopping) return;
          if (welcomed_[i]) {
            ++counts_.lost;
            return report("a waiting connection was closed: " + why);
          }
          report(why);
          set_up_done(false);
        });
  }

  void report(const std::string& why) {
    static std::atomic<int> printed{0};
    if (printed++ < 5) std::cerr << "duelhall-loadgen: " << why << "\n";
  }

  Counts& counts_;
  const net::ip::tcp::endpoint endpoint_;
  const uint32_t to_open_;
  const uint32_t max_opening_;
  const uint32_t protocol_;
  uint32_t opening_ = 0;
  std::vector<std::shared_ptr<Connection>> connections_;
  std::vector<bool> welcomed_;
};

// Bytes per connection from two RSS readings in KiB; -1 when either is unknown.
double per_connection(long before_kib, long after_kib, uint32_t connections) {
  if (before_kib < 0 || after_kib < 0 || connections == 0) return -1;
  return 1024.0 * static_cast<double>(after_kib - before_kib) / connections;
}

}  // namespace

int run_idle_connections(const Options& o, const net::ip::tcp::endpoint& endpoint) {
  std::printf("duelhall-loadgen: %u connections that say Hello and wait, %u client thread(s)\n",
              o.connections, o.threads);
  const long rss_before = o.server_pid ? rss_kib(o.server_pid) : -1;
  Counts counts;
  std::vector<std::unique_ptr<IdleShard>> shards;
  for (uint32_t t = 0; t < o.threads; ++t) {
    const uint32_t share = o.connections / o.threads + (t < o.connections % o.threads ? 1 : 0);
    shards.push_back(std::make_unique<IdleShard>(
        counts, endpoint, share, std::max(1u, o.max_opening / o.threads), o.protocol));
  }

  const auto opened_at = Clock::now();
  ShardThreads running;
  running.start(shards);
  while (counts.welcomed + counts.failed < o.connections &&
         seconds_since(opened_at) < o.open_timeout_seconds) {
    sleep_for(0.02);
  }
  const double open_seconds = seconds_since(opened_at);
  const uint32_t opened = counts.welcomed;
  // Read once the last Welcome is in: the server's side of every connection is set up.
  const long rss_after = o.server_pid ? rss_kib(o.server_pid) : -1;
  std::printf("opened %u of %u connections in %.2f s (%u failed)\n", opened, o.connections,
              open_seconds, counts.failed.load());
  std::fflush(stdout);

  // Held: the connections only wait (the server's keep-alive pings are answered by the client).
  sleep_for(o.warmup_seconds + o.duration_seconds);
  const long rss_end = o.server_pid ? rss_kib(o.server_pid) : -1;
  const uint32_t waiting = opened - counts.lost;
  double load[1] = {0};
  getloadavg(load, 1);

  counts.stopping = true;
  for (auto& shard : shards) net::post(shard->io, [s = shard.get()] { s->stop(); });
  running.stop(shards, std::chrono::seconds(1));

  const double per = per_connection(rss_before, rss_after, opened);
  const double per_end = per_connection(rss_before, rss_end, waiting);
  if (per >= 0) {
    std::printf(
        "server RSS %.1f MiB before, %.1f MiB with %u waiting connections: %.0f bytes per "
        "connection; %.1f MiB after %.0f s of waiting: %.0f bytes per connection\n",
        rss_before / 1024.0, rss_after / 1024.0, opened, per, rss_end / 1024.0,
        o.warmup_seconds + o.duration_seconds, per_end);
  }
  std::printf("still open at the end %u; failed %u; machine load average %.1f\n", waiting,
              counts.failed.load(), load[0]);
  std::printf(
      "RESULT mode=connections connections=%u opened=%u open_s=%.2f failed=%u live_end=%u "
      "rss_before_kib=%ld rss_after_kib=%ld rss_end_kib=%ld rss_per_connection_bytes=%.0f "
      "rss_end_per_connection_bytes=%.0f load_avg=%.1f\n",
      o.connections, opened, open_seconds, counts.failed.load(), waiting, rss_before, rss_after,
      rss_end, per, per_end, load[0]);
  return counts.failed > 0 || counts.lost > 0 || opened < o.connections ? 1 : 0;
}

}  // namespace duelhall::loadgen
