// Bots yield to people when the server is busy. A match against a bot offers load as fast as its
// bot answers (no delay by default), so bot matches can take the cores from matches between
// people (500 of each: the people's p99 2.74x what it is alone, docs/performance.md). The pacer
// watches how late the I/O threads run a probe timer (the wait any handler, a player's action
// among them, has in their queue) and, while that lag is `pace_lag_ms` or more and the server's
// own threads keep the cores busy, holds each bot's move back by a delay doubling per busy window
// up to `pace_max_ms`, a quarter shorter per calm one; meanwhile an expert plays its heuristic
// move instead of searching (match_bots.cpp). Bot matches slow down, people's matches keep their
// latency (1.55x). The server's own CPU is part of the test so that a machine busy with
// something else (a build, another process) does not slow the bots: pacing them would not give
// that time back.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>

#include "config/config.hpp"

namespace duelhall::server {

class BotPool;

// What one window of probes saw.
struct PaceSample {
  std::chrono::microseconds worst_lag{0};  // the latest any probe ran after its time
  double cores_used = 0;  // the server's CPU over the window, in cores, the bot pool's left out
};

// The pace after a window: the rule alone, without clocks or timers.
uint32_t next_bot_pace_ms(uint32_t pace_ms, const PaceSample& sample, const BotSettings& bots);

class BotPacer : public std::enable_shared_from_this<BotPacer> {
 public:
  // How often the probe runs, and how many probes make a window.
  static constexpr std::chrono::milliseconds kProbe{10};
  static constexpr int kProbesPerWindow = 10;

  // `pool` (may be null) is the bots' thinking threads, whose CPU is not the server's own.
  BotPacer(boost::asio::io_context& io, BotSettings bots, const BotPool* pool);

  // Starts the probes (no-op when pacing is off: pace_lag_ms 0); stop() ends them.
  void start();
  void stop();

  // Milliseconds a bot's next move waits; read from any thread.
  uint32_t pace_ms() const { return pace_ms_.load(std::memory_order_relaxed); }
  // The latest a probe ran after its time in the last window (also duelhall_io_lag_seconds).
  std::chrono::microseconds last_lag() const {
    return std::chrono::microseconds(lag_us_.load(std::memory_order_relaxed));
  }
  // Takes one window's sample: what the probes call, and what a test drives by hand.
  void observe(const PaceSample& sample);

 private:
  void arm();
  void probed(std::chrono::steady_clock::time_point due);
  // The process's CPU time, the bot pool's thinking left out.
  std::chrono::microseconds own_cpu() const;

  boost::asio::steady_timer timer_;
  const BotSettings bots_;
  const BotPool* pool_;
  std::atomic<uint32_t> pace_ms_{0};
  std::atomic<int64_t> lag_us_{0};
  std::mutex mutex_;  // guards stopped_ (stop() may come from another thread)
  bool stopped_ = false;
  // The window being measured (touched by the probe's handler only, one at a time).
  int probes_ = 0;
  std::chrono::microseconds worst_{0};
  std::chrono::steady_clock::time_point window_start_{};
  std::chrono::microseconds cpu_start_{0};  // the server's own, the pool's left out
};

}  // namespace duelhall::server
