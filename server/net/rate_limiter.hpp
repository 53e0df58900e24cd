// A token bucket: `rate` tokens per second up to `burst`. Used per connection for messages and
// chat (Cockatrice-style anti-flood), on the connection's own strand, so it does not lock.
#pragma once

#include <algorithm>
#include <chrono>

namespace duelhall::server {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  RateLimiter(double rate_per_second, double burst)
      : rate_(rate_per_second), burst_(burst), tokens_(burst), last_(Clock::now()) {}

  bool allow(Clock::time_point now = Clock::now()) {
    const std::chrono::duration<double> elapsed = now - last_;
    last_ = now;
    tokens_ = std::min(burst_, tokens_ + elapsed.count() * rate_);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

 private:
  double rate_;
  double burst_;
  double tokens_;
  Clock::time_point last_;
};

}  // namespace duelhall::server
