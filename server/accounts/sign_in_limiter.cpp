#include "accounts/sign_in_limiter.hpp"

namespace duelhall::accounts {

std::optional<int64_t> SignInLimiter::wait_ms(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = failures_.find(key);
  if (it == failures_.end()) return std::nullopt;
  auto& times = it->second;
  while (!times.empty() && times.front() + window_ms_ <= now_ms) times.pop_front();
  if (times.size() < max_failures_) return std::nullopt;
  return times.front() + window_ms_ - now_ms;
}

void SignInLimiter::failed(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (failures_.size() >= max_keys_) forget_stale(now_ms);
  auto& times = failures_[key];
  times.push_back(now_ms);
  while (times.size() > max_failures_) times.pop_front();
}

void SignInLimiter::succeeded(const std::string& key) {
  std::lock_guard lock(mutex_);
  failures_.erase(key);
}

void SignInLimiter::forget_stale(int64_t now_ms) {
  std::erase_if(failures_, [&](const auto& entry) {
    return entry.second.empty() || entry.second.back() + window_ms_ <= now_ms;
  });
  // Still full of live keys (a distributed flood): the oldest knowledge goes first.
  if (failures_.size() >= max_keys_) failures_.clear();
}

}  // namespace duelhall::accounts
