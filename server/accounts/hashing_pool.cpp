#include "accounts/hashing_pool.hpp"

#include <algorithm>
#include <chrono>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace duelhall::accounts {

HashingPool::HashingPool(unsigned threads, size_t queue_limit)
    : queue_limit_(queue_limit), threads_count_(std::max(1U, threads)) {
  threads_.reserve(threads_count_);
  for (unsigned i = 0; i < threads_count_; ++i) threads_.emplace_back([this] { work(); });
}

HashingPool::~HashingPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& thread : threads_) thread.join();
}

bool HashingPool::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= queue_limit_) return false;
    queue_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

uint32_t HashingPool::retry_after_ms() const {
  // A full queue drains in about queue_limit jobs per thread.
  const uint64_t drain =
      uint64_t{job_ms_.load()} * std::max<size_t>(1, queue_limit_) / threads_count_;
  return static_cast<uint32_t>(std::clamp<uint64_t>(drain, 100, 60'000));
}

size_t HashingPool::waiting() {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

namespace {

// Hashing yields the cores to the I/O threads when both want them: a flood then slows the
// password commands, not every connection and match. (On Linux a thread has its own nice value.)
void lower_priority() {
#ifdef __linux__
  const auto thread = static_cast<id_t>(::syscall(SYS_gettid));
  (void)::setpriority(PRIO_PROCESS, thread, 10);
#endif
}

}  // namespace

void HashingPool::work() {
  lower_priority();
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      job();  // a job answers its own failures; this only keeps a thread from ending the process
    } catch (...) {
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    const uint32_t previous = job_ms_.load();
    job_ms_.store(static_cast<uint32_t>((previous * 7 + static_cast<uint64_t>(ms)) / 8));
  }
}

}  // namespace duelhall::accounts
