// Whether the match store takes writes, for /readyz: every period a probe goes through the
// group-commit writer (GroupCommitLog::probe, in order with the matches' writes, never on an I/O
// thread), and every batch the writer commits counts too. While the store cannot be reached or
// cannot write, the node is not ready ("store unavailable"): a load balancer sends new players
// elsewhere, while the matches in play wait for the store (match_storage.cpp).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>

#include "storage/group_commit.hpp"

namespace duelhall::server {

class StoreWatch : public std::enable_shared_from_this<StoreWatch> {
 public:
  StoreWatch(boost::asio::io_context& io, storage::GroupCommitLog& log,
             std::chrono::milliseconds period);
  void start();

 private:
  void tick();

  boost::asio::steady_timer timer_;
  storage::GroupCommitLog& log_;  // outlives the I/O loop's run (main.cpp)
  const std::chrono::milliseconds period_;
};

}  // namespace duelhall::server
