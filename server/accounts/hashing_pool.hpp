// The threads that hash passwords. An Argon2id hash takes tens of milliseconds of a core and
// 19 MiB; run on an I/O thread, a flood of password commands stalls every connection and match
// that thread serves. Here a few threads take the work from a bounded queue: when it is full,
// submit() refuses and the command is answered BUSY with a hint of when to retry, so the memory
// and the cores hashing may take are bounded whatever the clients send. The threads run at a
// lower priority (nice 10 on Linux), so the I/O threads win a core they both want.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace duelhall::accounts {

class HashingPool {
 public:
  // `threads` at least 1; `queue_limit`: jobs waiting for a thread, beyond those running.
  HashingPool(unsigned threads, size_t queue_limit);
  // Runs the jobs still queued, then joins the threads.
  ~HashingPool();
  HashingPool(const HashingPool&) = delete;
  HashingPool& operator=(const HashingPool&) = delete;

  // Queues `job`; false (and nothing queued) when the queue is full.
  bool submit(std::function<void()> job);
  // A hint for a refused client: about when a place in the queue frees up, in milliseconds.
  uint32_t retry_after_ms() const;
  size_t waiting();

 private:
  void work();

  const size_t queue_limit_;
  const unsigned threads_count_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::atomic<uint32_t> job_ms_{50};  // recent time per job, a moving average
  std::vector<std::thread> threads_;
};

}  // namespace duelhall::accounts
