// Each load-generator shard's io_context on a thread of its own, and the main thread's waits
// while they run: the match mode (main.cpp) and the waiting-connections mode
// (idle_connections.cpp) start, time and end their shards the same way.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace duelhall::loadgen {

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

inline void sleep_for(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

class ShardThreads {
 public:
  // Posts each shard's first `start_some` and runs its io_context on a new thread, kept running
  // (with nothing queued) until `stop`.
  template <class Shard>
  void start(const std::vector<std::unique_ptr<Shard>>& shards) {
    for (const auto& shard : shards) {
      guards_.push_back(boost::asio::make_work_guard(shard->io));
      boost::asio::post(shard->io, [s = shard.get()] { s->start_some(); });
      threads_.emplace_back([s = shard.get()] { s->io.run(); });
    }
  }

  // Gives the closing work already posted `grace` to run, then stops the shards and joins.
  template <class Shard>
  void stop(const std::vector<std::unique_ptr<Shard>>& shards, std::chrono::milliseconds grace) {
    guards_.clear();
    std::this_thread::sleep_for(grace);
    for (const auto& shard : shards) shard->io.stop();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  std::vector<std::thread> threads_;
  std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guards_;
};

}  // namespace duelhall::loadgen
