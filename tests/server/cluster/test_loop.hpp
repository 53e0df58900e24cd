// An io_context on a thread of its own for the cluster tests, and a way to wait for one of the
// directory's asynchronous answers.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include "cluster/cluster_directory.hpp"

namespace duelhall::testing {

class TestLoop {
 public:
  TestLoop() : work_(boost::asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~TestLoop() {
    for (auto& link : links_) link->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    work_.reset();
    io_.stop();
    thread_.join();
  }
  boost::asio::io_context& io() { return io_; }
  // Stopped before the loop ends, so that no connection outlives it.
  void track(std::shared_ptr<cluster::RedisLink> link) { links_.push_back(std::move(link)); }

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  std::vector<std::shared_ptr<cluster::RedisLink>> links_;
};

// Calls `call` with an answer handler and waits (at most 5 s) for the answer.
template <typename T>
std::optional<T> await(const std::function<void(cluster::Answer<T>)>& call) {
  auto promise = std::make_shared<std::promise<std::optional<T>>>();
  auto future = promise->get_future();
  call([promise](std::optional<T> answer) { promise->set_value(std::move(answer)); });
  if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready) return std::nullopt;
  return future.get();
}

// Polls `condition` until it holds or `limit` passes.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return condition();
}

}  // namespace duelhall::testing
