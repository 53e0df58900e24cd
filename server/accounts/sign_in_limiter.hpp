// Failed attempts per key (an address, an account) in a sliding window: after `max_failures`
// within `window`, the key waits until the oldest of them leaves the window. Thread-safe; the
// table is bounded (stale keys are dropped when it grows), so a flood of addresses cannot grow
// it without end.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace duelhall::accounts {

class SignInLimiter {
 public:
  SignInLimiter(uint32_t max_failures, int64_t window_ms, size_t max_keys = 100'000)
      : max_failures_(max_failures), window_ms_(window_ms), max_keys_(max_keys) {}

  // How long `key` must still wait, in milliseconds; nullopt: it may try now.
  std::optional<int64_t> wait_ms(const std::string& key, int64_t now_ms);
  void failed(const std::string& key, int64_t now_ms);
  void succeeded(const std::string& key);

 private:
  void forget_stale(int64_t now_ms);

  const uint32_t max_failures_;
  const int64_t window_ms_;
  const size_t max_keys_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<int64_t>> failures_;
};

}  // namespace duelhall::accounts
