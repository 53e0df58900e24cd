// The threads on which the searching bots think, off the I/O threads. A match hands a job (a
// search over its own copy of the position) to the pool and gets the chosen move back on its
// strand (match_bots.cpp), so that a bot thinking for a long time never holds up the other
// matches served by the same I/O thread.
//
// Bounded: at most `queue` jobs wait beyond the ones the threads are running. When the queue is
// full, submit() refuses and the match plays its bot's heuristic move at once: a crowd of expert
// bots then plays weaker for a while, it never slows the server nor grows its memory.
//
// Below the I/O threads: on Linux each pool thread lowers its own scheduling priority by `nice`
// steps (setpriority on its thread id), so that a core shared between a search and the I/O
// threads goes to the players' actions first and to the bots with what is left.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace duelhall::server {

class BotPool {
 public:
  // Starts `threads` (at least one) threads, each `nice` steps below the caller's priority (up
  // to the lowest, 19); at most `queue` jobs wait for one of them.
  BotPool(uint32_t threads, uint32_t queue, uint32_t nice = 0);
  // Drops the jobs still waiting and waits for the running ones (each within its bot's budget).
  ~BotPool();
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // Queues `job`, which runs on one of the pool's threads and must not throw; false (and `job`
  // dropped) when the queue is full.
  bool submit(std::function<void()> job);
  // Whether submit() would take a job now (a hint: another thread may take the room first).
  bool has_room() const;
  // Jobs accepted and not finished: waiting or running.
  size_t busy() const;
  uint32_t threads() const { return static_cast<uint32_t>(thread_count_); }
  // CPU time the pool's threads have spent on jobs: the bot pacer leaves it out of the server's
  // own (bot_pacer.hpp), since a bot thinking at a low priority holds up no player.
  std::chrono::microseconds cpu_time() const {
    return std::chrono::microseconds(cpu_us_.load(std::memory_order_relaxed));
  }

 private:
  void work();
  // Whether a job fits now (mutex_ held). A job for a thread that is free does not count as
  // waiting.
  bool room_locked() const {
    return !stopping_ && waiting_.size() < queue_limit_ + (thread_count_ - running_);
  }

  const size_t thread_count_;
  const size_t queue_limit_;
  const int nice_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> waiting_;
  size_t running_ = 0;
  std::atomic<int64_t> cpu_us_{0};
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace duelhall::server
