// Attempts per key (an address, an account, an account from one address) in a sliding window.
//
// Two shapes of limit:
//  - a hard limit: after `max_attempts` within `window`, the key waits until the oldest of them
//    leaves the window;
//  - a growing delay (`delay_cap_ms` > 0): past `max_attempts`, each further attempt waits a delay
//    after the latest one that doubles from one second, up to the cap. It slows a key many
//    parties share (an account, tried from many addresses) without ever locking it for long.
//
// take() checks and records in one step, before the work the attempt costs (a password hash):
// simultaneous attempts cannot all pass the check before any is counted. An attempt that turns
// out not to count (a right password) is given back.
//
// Thread-safe. The table is bounded: stale keys go first, then the least recently used ones, so
// a flood of new keys forgets the oldest knowledge instead of wiping every key at once.
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
  SignInLimiter(uint32_t max_attempts, int64_t window_ms, size_t max_keys = 100'000,
                int64_t delay_cap_ms = 0)
      : max_attempts_(max_attempts),
        window_ms_(window_ms),
        max_keys_(max_keys),
        delay_cap_ms_(delay_cap_ms) {}

  // How long `key` must still wait, in milliseconds; nullopt: it may try now.
  std::optional<int64_t> wait_ms(const std::string& key, int64_t now_ms);
  // Records one attempt of `key` at `now_ms`.
  void failed(const std::string& key, int64_t now_ms);
  // wait_ms() and, when the key may try, failed() in one step: nullopt means recorded.
  std::optional<int64_t> take(const std::string& key, int64_t now_ms);
  // Takes back one attempt that take() recorded at `at_ms`.
  void give_back(const std::string& key, int64_t at_ms);
  // Forgets the key's attempts.
  void succeeded(const std::string& key);
  // Attempts `key` has before it must wait (0 when it must wait now).
  uint32_t left(const std::string& key, int64_t now_ms);
  size_t keys();

 private:
  using Times = std::deque<int64_t>;
  std::optional<int64_t> wait_locked(Times& times, int64_t now_ms) const;
  void record_locked(const std::string& key, int64_t now_ms);
  void make_room(int64_t now_ms);

  const uint32_t max_attempts_;
  const int64_t window_ms_;
  const size_t max_keys_;
  const int64_t delay_cap_ms_;
  std::mutex mutex_;
  std::unordered_map<std::string, Times> attempts_;
};

// The key under which an address is limited: an IPv6 address by its /64 (one subscriber's
// network, which hands its hosts any address in it), an IPv4-mapped one as the IPv4 address,
// anything else as given.
std::string limit_key_of_address(const std::string& address);

}  // namespace duelhall::accounts
