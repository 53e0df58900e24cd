#include "match/bot_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace duelhall::server {
namespace {

// Lowers the calling thread's priority by `steps`. Linux keeps a nice value per thread, set
// through the thread's id; raising it needs no privilege. Elsewhere the bots keep the I/O
// threads' priority.
void lower_own_priority(int steps) {
  if (steps <= 0) return;
#ifdef __linux__
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (errno == 0 && ::setpriority(PRIO_PROCESS, tid, std::min(current + steps, 19)) == 0) return;
  spdlog::warn("a bot thread could not lower its priority: {}", std::strerror(errno));
#endif
}

// CPU time the calling thread has used.
int64_t thread_cpu_us() {
  timespec t{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return static_cast<int64_t>(t.tv_sec) * 1'000'000 + t.tv_nsec / 1'000;
}

}  // namespace

BotPool::BotPool(uint32_t threads, uint32_t queue, uint32_t nice)
    : thread_count_(std::max<uint32_t>(threads, 1)),
      queue_limit_(queue),
      nice_(static_cast<int>(std::min<uint32_t>(nice, 39))) {
  threads_.reserve(thread_count_);
  for (size_t i = 0; i < thread_count_; ++i) threads_.emplace_back([this] { work(); });
}

BotPool::~BotPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    waiting_.clear();
  }
  ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool BotPool::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (!room_locked()) return false;
    waiting_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

bool BotPool::has_room() const {
  std::lock_guard lock(mutex_);
  return room_locked();
}

size_t BotPool::busy() const {
  std::lock_guard lock(mutex_);
  return waiting_.size() + running_;
}

void BotPool::work() {
  lower_own_priority(nice_);
  std::unique_lock lock(mutex_);
  while (true) {
    ready_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
    if (stopping_) return;
    std::function<void()> job = std::move(waiting_.front());
    waiting_.pop_front();
    ++running_;
    lock.unlock();
    const int64_t started = thread_cpu_us();
    job();
    job = nullptr;  // what the job holds (a match, a bot) is let go before the count drops
    cpu_us_.fetch_add(thread_cpu_us() - started, std::memory_order_relaxed);
    lock.lock();
    --running_;
  }
}

}  // namespace duelhall::server
