// The drain on SIGTERM: the hub stops taking new matches and /readyz turns false, every open
// WebSocket is sent a ServerClosing message and closed with code 1012 (service restart), and the
// server stops once they have closed or `drain_seconds` have passed. Nothing in play is lost:
// an action is acknowledged only once it is stored (the durability gate in match/), so every
// acknowledged action is on disk, and the store's recovery resumes each match after the
// restart. A second SIGTERM (or SIGINT) stops at once.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <string>

#include "lobby/hub.hpp"
#include "net/http_session.hpp"

namespace duelhall::server {

class Drain {
 public:
  // `stop` ends serving (closes the listener and stops the I/O loop).
  Drain(boost::asio::io_context& io, Hub& hub, HttpContext& context, std::function<void()> stop);
  // Begins the drain; a second call stops at once.
  void begin(const std::string& reason);

 private:
  void poll();
  void finish();

  Hub& hub_;
  HttpContext& context_;
  std::function<void()> stop_;
  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::time_point deadline_;
  bool begun_ = false;
  bool finished_ = false;
};

}  // namespace duelhall::server
