#include "metrics/server_metrics.hpp"

namespace duelhall::metrics {

ServerMetrics::ServerMetrics()
    : connections(registry.gauge("duelhall_connections", "Open TCP connections.")),
      websockets(registry.gauge("duelhall_websockets", "Open WebSocket sessions.")),
      connections_refused(registry.counter("duelhall_connections_refused_total",
                                           "Connections refused at a connection cap.")),
      bytes_out(registry.counter("duelhall_ws_sent_bytes_total",
                                 "WebSocket payload bytes written to clients.")),
      frames_out(registry.counter("duelhall_ws_sent_frames_total",
                                  "WebSocket frames written to clients.")),
      rate_limited(registry.counter("duelhall_rate_limited_total",
                                    "Client messages dropped by the per-connection rate limit.")),
      slow_consumers(registry.counter("duelhall_slow_consumer_drops_total",
                                      "Connections dropped for falling behind their updates.")),
      logins(registry.counter("duelhall_logins_total", "Account logins.")),
      bans(registry.counter("duelhall_bans_total", "Bans issued by moderators.")),
      drains(registry.counter("duelhall_drains_total", "Shutdown drains begun (SIGTERM).")),
      commit_latency(registry.histogram("duelhall_store_commit_seconds",
                                        "One store commit of a group of actions, with its sync.",
                                        latency_buckets())),
      other_refusals_(&registry.counter(
          "duelhall_refusals_total", "Commands refused, by result code.", {{"code", "OTHER"}})) {}

RulesetMetrics& ServerMetrics::ruleset(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto& slot = rulesets_[name];
  if (!slot) {
    slot = std::make_unique<RulesetMetrics>(RulesetMetrics{
        registry.gauge("duelhall_matches_live", "Matches waiting or in play, by ruleset.",
                       {{"ruleset", name}}),
        registry.counter("duelhall_actions_total",
                         "Accepted actions (players and bots), by ruleset.", {{"ruleset", name}}),
        registry.histogram("duelhall_action_update_seconds",
                           "From an action's arrival to the release of its reply and updates "
                           "(after the store), by ruleset.",
                           latency_buckets(), {{"ruleset", name}})});
  }
  return *slot;
}

Counter& ServerMetrics::refusal(int code, std::string_view name) {
  if (code < 0 || static_cast<size_t>(code) >= kCodes) return *other_refusals_;
  std::atomic<Counter*>& slot = refusals_[static_cast<size_t>(code)];
  if (Counter* known = slot.load(std::memory_order_acquire)) return *known;
  Counter& counter =
      registry.counter("duelhall_refusals_total", "Commands refused, by result code.",
                       {{"code", std::string(name)}});
  slot.store(&counter, std::memory_order_release);
  return counter;
}

ServerMetrics& server_metrics() {
  static ServerMetrics instance;
  return instance;
}

}  // namespace duelhall::metrics
