// The password-hashing flood of issue 29 (item 1) against a running server, and what it does to
// another client: N connections signed in to one account each pipeline K ChangePassword
// commands while a separate guest connection pings every 5 ms. Prints the ping's round trip
// (p50, p99, max) before and during the flood, and the flood's answers by result code.
//
// Modes: `same` sends ChangePassword{old = P, new = P} (the flood); `wrong` sends a wrong
// old password, so that every command the limits let through costs one Argon2id hash (run the
// server with high limits to hash them all). scripts/bench-hashing.sh starts a server and runs it.
//
// Usage: duelhall-hashing-flood PORT [connections 32] [per connection 4] [same|wrong]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "ws_client.hpp"

using namespace duelhall;
using Clock = std::chrono::steady_clock;

namespace {

constexpr char kPassword[] = "flood password 1";

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
  size_t count = 0;
};

Percentiles percentiles(std::vector<double> ms) {
  Percentiles out;
  out.count = ms.size();
  if (ms.empty()) return out;
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))];
  };
  out.p50 = at(0.50);
  out.p99 = at(0.99);
  out.max = ms.back();
  return out;
}

// Pings until `stop`, one at a time, every 5 ms; the round trips in milliseconds.
std::vector<double> ping_until(client::WsClient& c, const std::atomic<bool>& stop) {
  std::vector<double> out;
  uint64_t nonce = 1;
  while (!stop.load()) {
    ClientMessage ping;
    ping.mutable_ping()->set_nonce(nonce++);
    const auto start = Clock::now();
    const ServerMessage pong = c.request(ping, std::chrono::milliseconds(30'000));
    if (!pong.has_pong()) break;
    out.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return out;
}

std::unique_ptr<client::WsClient> open_connection(uint16_t port, ClientMessage hello) {
  auto c = std::make_unique<client::WsClient>();
  c->connect("127.0.0.1", port);
  hello.mutable_hello()->set_protocol_version(1);
  const ServerMessage welcome = c->request(hello);
  if (welcome.result() != OK) throw std::runtime_error("hello refused: " + welcome.reason());
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PORT [connections] [per connection] [same|wrong]\n", argv[0]);
    return 2;
  }
  const auto port = static_cast<uint16_t>(std::stoi(argv[1]));
  const int connections = argc > 2 ? std::stoi(argv[2]) : 32;
  const int per_connection = argc > 3 ? std::stoi(argv[3]) : 4;
  const std::string mode = argc > 4 ? argv[4] : "same";

  ClientMessage guest;
  guest.mutable_hello()->set_display_name("setup");
  auto setup = open_connection(port, guest);
  ClientMessage reg;
  reg.mutable_register_account()->set_name("flood" + std::to_string(::getpid() % 100000));
  reg.mutable_register_account()->set_password(kPassword);
  const ServerMessage signed_in = setup->request(reg, std::chrono::milliseconds(30'000));
  if (signed_in.result() != OK) {
    std::fprintf(stderr, "register refused: %s\n", signed_in.reason().c_str());
    return 1;
  }
  ClientMessage with_session;
  with_session.mutable_hello()->set_session_token(signed_in.signed_in().session_token());
  std::vector<std::unique_ptr<client::WsClient>> flooders;
  for (int i = 0; i < connections; ++i) flooders.push_back(open_connection(port, with_session));

  ClientMessage pinger_hello;
  pinger_hello.mutable_hello()->set_display_name("pinger");
  auto pinger = open_connection(port, pinger_hello);
  std::atomic<bool> stop{false};
  std::thread idle_pings([&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    stop = true;
  });
  const Percentiles idle = percentiles(ping_until(*pinger, stop));
  idle_pings.join();

  stop = false;
  std::vector<double> flood_pings;
  std::thread pings([&] { flood_pings = ping_until(*pinger, stop); });
  std::mutex tally_mutex;
  std::map<std::string, int> tally;
  uint64_t retry_hints = 0;
  const auto flood_start = Clock::now();
  std::vector<std::thread> threads;
  for (auto& c : flooders) {
    threads.emplace_back([&, c = c.get()] {
      for (int k = 0; k < per_connection; ++k) {
        ClientMessage change;
        auto* r = change.mutable_change_password();
        r->set_old_password(mode == "same" ? kPassword : "not the password at all");
        r->set_new_password(mode == "same" ? kPassword : "another password 2");
        c->send(change);
      }
      for (int k = 0; k < per_connection; ++k) {
        std::optional<ServerMessage> reply;
        try {
          while ((reply = c->receive(std::chrono::milliseconds(60'000))) &&
                 reply->request_id() == 0) {
          }
        } catch (const std::exception&) {
          reply.reset();
        }
        std::lock_guard lock(tally_mutex);
        if (!reply) {
          ++tally["(no reply)"];
          break;
        }
        ++tally[ResultCode_Name(reply->result())];
        if (reply->retry_after_ms() > 0) ++retry_hints;
      }
    });
  }
  for (auto& t : threads) t.join();
  const double flood_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - flood_start).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  stop = true;
  pings.join();
  const Percentiles during = percentiles(flood_pings);

  std::printf("flood: %d connections x %d ChangePassword (%s), answered in %.0f ms:", connections,
              per_connection, mode.c_str(), flood_ms);
  for (const auto& [code, count] : tally) std::printf(" %s=%d", code.c_str(), count);
  std::printf(" (retry_after_ms set on %llu)\n", static_cast<unsigned long long>(retry_hints));
  std::printf("ping idle:   n=%zu p50=%.2f ms p99=%.2f ms max=%.2f ms\n", idle.count, idle.p50,
              idle.p99, idle.max);
  std::printf("ping flood:  n=%zu p50=%.2f ms p99=%.2f ms max=%.2f ms\n", during.count, during.p50,
              during.p99, during.max);
  return 0;
}
