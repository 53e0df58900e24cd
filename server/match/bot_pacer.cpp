#include "match/bot_pacer.hpp"

#include <sys/resource.h>

#include <algorithm>

#include "match/bot_pool.hpp"
#include "metrics/metrics.hpp"
#include "metrics/server_metrics.hpp"

namespace duelhall::server {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

// Below half a core of its own work the server is not what makes the probes late, and pacing
// its bots would give nobody time back.
constexpr double kServerBusyCores = 0.5;
// The first step of a delay: about what a person takes to notice a bot's answer.
constexpr uint32_t kFirstPaceMs = 25;

microseconds process_cpu() {
  rusage use{};
  ::getrusage(RUSAGE_SELF, &use);
  const auto of = [](const timeval& t) {
    return std::chrono::seconds(t.tv_sec) + microseconds(t.tv_usec);
  };
  return of(use.ru_utime) + of(use.ru_stime);
}

// A distribution of one value per window, in seconds (Prometheus's base unit).
metrics::Histogram& window_histogram(const char* name, const char* help) {
  return metrics::server_metrics().registry.histogram(name, help, metrics::latency_buckets());
}

bool pacing_on(const BotSettings& bots) { return bots.pace_lag_ms > 0 && bots.pace_max_ms > 0; }

}  // namespace

uint32_t next_bot_pace_ms(uint32_t pace_ms, const PaceSample& sample, const BotSettings& bots) {
  if (!pacing_on(bots)) return 0;
  const bool busy = sample.worst_lag >= milliseconds(bots.pace_lag_ms) &&
                    sample.cores_used >= kServerBusyCores;
  if (busy) return std::min(bots.pace_max_ms, std::max(kFirstPaceMs, pace_ms * 2));
  const uint32_t calmer = pace_ms - pace_ms / 4;
  return calmer < kFirstPaceMs ? 0 : calmer;
}

BotPacer::BotPacer(boost::asio::io_context& io, BotSettings bots, const BotPool* pool)
    : timer_(io), bots_(bots), pool_(pool) {}

void BotPacer::start() {
  if (!pacing_on(bots_)) return;
  window_start_ = steady_clock::now();
  cpu_start_ = own_cpu();
  arm();
}

microseconds BotPacer::own_cpu() const {
  return process_cpu() - (pool_ ? pool_->cpu_time() : microseconds(0));
}

void BotPacer::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  timer_.cancel();
}

void BotPacer::observe(const PaceSample& sample) {
  const uint32_t pace = next_bot_pace_ms(pace_ms(), sample, bots_);
  pace_ms_.store(pace, std::memory_order_relaxed);
  lag_us_.store(sample.worst_lag.count(), std::memory_order_relaxed);
  static metrics::Histogram& paces = window_histogram(
      "duelhall_bot_pace_seconds",
      "Each 100 ms window's wait for every bot move on a busy server (bot pacing; 0 when calm).");
  static metrics::Histogram& lags = window_histogram(
      "duelhall_io_lag_seconds",
      "Each 100 ms window's latest run of a probe timer after its time on the I/O threads.");
  paces.observe(pace / 1e3);
  lags.observe(static_cast<double>(sample.worst_lag.count()) / 1e6);
}

void BotPacer::arm() {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  timer_.expires_after(kProbe);
  timer_.async_wait([weak = weak_from_this(), due = timer_.expiry()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!ec && self) self->probed(due);
  });
}

void BotPacer::probed(steady_clock::time_point due) {
  const steady_clock::time_point now = steady_clock::now();
  worst_ = std::max(worst_, std::chrono::duration_cast<microseconds>(now - due));
  if (++probes_ >= kProbesPerWindow) {
    const microseconds cpu = own_cpu();
    const auto wall = std::chrono::duration_cast<microseconds>(now - window_start_);
    observe({.worst_lag = worst_,
             .cores_used = wall.count() > 0 ? static_cast<double>((cpu - cpu_start_).count()) /
                                                  static_cast<double>(wall.count())
                                            : 0.0});
    probes_ = 0;
    worst_ = microseconds(0);
    window_start_ = now;
    cpu_start_ = cpu;
  }
  arm();
}

}  // namespace duelhall::server
