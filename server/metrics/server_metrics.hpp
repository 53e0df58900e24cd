// The server's metrics by name, one instance per process (server_metrics()): every layer counts
// into it with relaxed atomics, and GET /metrics renders it. Series with a label that is only
// known at run time (a ruleset, a result code) are registered on first use under the
// registry's lock and then reached without it: a match keeps its ruleset's RulesetMetrics, and
// result codes index a fixed table of pointers.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <string>
#include <string_view>

#include "metrics/metrics.hpp"

namespace duelhall::metrics {

struct RulesetMetrics {
  Gauge& live_matches;
  Counter& actions;
  Histogram& action_latency;  // an action's arrival to the release of its reply and updates
  void action_latency_since(std::chrono::steady_clock::time_point received) {
    action_latency.observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - received).count());
  }
};

class ServerMetrics {
 public:
  ServerMetrics();
  ServerMetrics(const ServerMetrics&) = delete;
  ServerMetrics& operator=(const ServerMetrics&) = delete;

  Registry registry;
  Gauge& connections;            // open TCP connections (HTTP and WebSocket)
  Gauge& websockets;             // of which WebSocket sessions
  Counter& connections_refused;  // over a connection cap
  Counter& bytes_out;            // WebSocket payload bytes written
  Counter& frames_out;
  Counter& rate_limited;      // client messages dropped by the rate limiter
  Counter& slow_consumers;    // connections dropped for not reading their updates
  Counter& logins;            // successful sign-ins and registrations (lobby/account_handlers.cpp)
  Counter& bans;              // kept by the moderation code
  Counter& drains;            // SIGTERM drains begun
  Histogram& commit_latency;  // one store commit (group of actions) with its sync

  // Registers the ruleset's series on first use (locks); keep the reference.
  RulesetMetrics& ruleset(const std::string& name);
  // Refusals (replies with a result other than OK) by code; `name` labels the series.
  Counter& refusal(int code, std::string_view name);

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<RulesetMetrics>> rulesets_;
  static constexpr size_t kCodes = 128;
  std::array<std::atomic<Counter*>, kCodes> refusals_{};
  Counter* other_refusals_ = nullptr;
};

ServerMetrics& server_metrics();

}  // namespace duelhall::metrics
