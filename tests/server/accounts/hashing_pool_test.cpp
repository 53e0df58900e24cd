#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "accounts/hashing_pool.hpp"

using duelhall::accounts::HashingPool;

TEST_CASE("item 1: the hashing pool runs jobs off the caller's thread and refuses past its queue") {
  std::mutex mutex;
  std::condition_variable released;
  bool go = false;
  std::atomic<int> ran{0};
  std::atomic<bool> on_caller{false};
  const auto caller = std::this_thread::get_id();
  {
    HashingPool pool(2, 3);
    auto blocked = [&] {
      if (std::this_thread::get_id() == caller) on_caller = true;
      std::unique_lock lock(mutex);
      released.wait(lock, [&] { return go; });
      ++ran;
    };
    // Two run (one per thread), three wait: the sixth is refused while none has finished.
    int accepted = 0;
    for (int i = 0; i < 6; ++i) {
      if (pool.submit(blocked)) ++accepted;
      if (i < 2) {
        // Let the threads take the first two, so that the queue holds only the waiting ones.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (pool.waiting() > 0 && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      }
    }
    CHECK(accepted == 5);
    CHECK(pool.retry_after_ms() >= 100);
    {
      std::lock_guard lock(mutex);
      go = true;
    }
    released.notify_all();
  }  // the destructor runs what was queued, then joins
  CHECK(ran.load() == 5);
  CHECK_FALSE(on_caller.load());
}
