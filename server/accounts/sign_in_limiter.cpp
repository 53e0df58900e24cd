#include "accounts/sign_in_limiter.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <vector>

namespace duelhall::accounts {
namespace {

// Enough attempts kept past the limit for the growing delay to reach any sane cap (2^40 s).
constexpr size_t kDelaySteps = 40;

}  // namespace

std::optional<int64_t> SignInLimiter::wait_locked(Times& times, int64_t now_ms) const {
  while (!times.empty() && times.front() + window_ms_ <= now_ms) times.pop_front();
  if (times.size() < max_attempts_) return std::nullopt;
  int64_t until = times.front() + window_ms_;
  if (delay_cap_ms_ > 0) {
    const size_t past = std::min(times.size() - max_attempts_, kDelaySteps);
    until = times.back() + std::min<int64_t>(delay_cap_ms_, int64_t{1000} << past);
  }
  if (until <= now_ms) return std::nullopt;
  return until - now_ms;
}

void SignInLimiter::record_locked(const std::string& key, int64_t now_ms) {
  auto it = attempts_.find(key);
  if (it == attempts_.end()) {
    if (attempts_.size() >= max_keys_) make_room(now_ms);
    it = attempts_.emplace(key, Times()).first;
  }
  Times& times = it->second;
  times.push_back(now_ms);
  const size_t kept = delay_cap_ms_ > 0 ? max_attempts_ + kDelaySteps : max_attempts_;
  while (times.size() > std::max<size_t>(kept, 1)) times.pop_front();
}

std::optional<int64_t> SignInLimiter::wait_ms(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = attempts_.find(key);
  if (it == attempts_.end()) return std::nullopt;
  return wait_locked(it->second, now_ms);
}

void SignInLimiter::failed(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  record_locked(key, now_ms);
}

std::optional<int64_t> SignInLimiter::take(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (auto it = attempts_.find(key); it != attempts_.end()) {
    if (auto wait = wait_locked(it->second, now_ms)) return wait;
  }
  if (max_attempts_ == 0) return window_ms_;
  record_locked(key, now_ms);
  return std::nullopt;
}

void SignInLimiter::give_back(const std::string& key, int64_t at_ms) {
  std::lock_guard lock(mutex_);
  auto it = attempts_.find(key);
  if (it == attempts_.end()) return;
  Times& times = it->second;
  auto at = std::find(times.rbegin(), times.rend(), at_ms);
  if (at != times.rend()) times.erase(std::next(at).base());
  if (times.empty()) attempts_.erase(it);
}

void SignInLimiter::succeeded(const std::string& key) {
  std::lock_guard lock(mutex_);
  attempts_.erase(key);
}

uint32_t SignInLimiter::left(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = attempts_.find(key);
  if (it == attempts_.end()) return max_attempts_;
  if (wait_locked(it->second, now_ms)) return 0;
  const size_t used = it->second.size();
  return used >= max_attempts_ ? 0 : static_cast<uint32_t>(max_attempts_ - used);
}

size_t SignInLimiter::keys() {
  std::lock_guard lock(mutex_);
  return attempts_.size();
}

void SignInLimiter::make_room(int64_t now_ms) {
  std::erase_if(attempts_, [&](const auto& entry) {
    return entry.second.empty() || entry.second.back() + window_ms_ <= now_ms;
  });
  if (attempts_.size() < max_keys_) return;
  // Still full of live keys (a distributed flood): the least recently active tenth goes, so
  // the scan runs once per tenth of the table and the keys in use (an attacked account's) stay.
  std::vector<int64_t> latest;
  latest.reserve(attempts_.size());
  for (const auto& [key, times] : attempts_) latest.push_back(times.back());
  const size_t drop = std::max<size_t>(1, attempts_.size() / 10);
  std::nth_element(latest.begin(), latest.begin() + static_cast<ptrdiff_t>(drop - 1), latest.end());
  const int64_t cutoff = latest[drop - 1];
  size_t dropped = 0;
  for (auto it = attempts_.begin(); it != attempts_.end() && dropped < drop;) {
    if (it->second.back() <= cutoff) {
      it = attempts_.erase(it);
      ++dropped;
    } else {
      ++it;
    }
  }
}

std::string limit_key_of_address(const std::string& address) {
  namespace ip = boost::asio::ip;
  boost::system::error_code ec;
  const ip::address parsed = ip::make_address(address, ec);
  if (ec) return address;
  if (parsed.is_v4()) return parsed.to_string();
  const ip::address_v6 v6 = parsed.to_v6();
  if (v6.is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, v6).to_string();
  return ip::make_network_v6(v6, 64).canonical().to_string();
}

}  // namespace duelhall::accounts
