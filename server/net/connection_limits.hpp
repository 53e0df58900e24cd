// Caps on open connections, overall and per IP address. A ConnectionSlot holds one place and
// gives it back when the connection object that owns it is destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace duelhall::server {

class ConnectionCounter;

class ConnectionSlot {
 public:
  ConnectionSlot(std::shared_ptr<ConnectionCounter> counter, std::string ip, uint64_t id)
      : counter_(std::move(counter)), ip_(std::move(ip)), id_(id) {}
  ConnectionSlot(ConnectionSlot&&) = default;
  ConnectionSlot& operator=(ConnectionSlot&&) = default;
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;
  ~ConnectionSlot();
  const std::string& ip() const { return ip_; }
  uint64_t id() const { return id_; }

 private:
  std::shared_ptr<ConnectionCounter> counter_;
  std::string ip_;
  uint64_t id_ = 0;
};

class ConnectionCounter : public std::enable_shared_from_this<ConnectionCounter> {
 public:
  ConnectionCounter(uint32_t max_total, uint32_t max_per_ip)
      : max_total_(max_total), max_per_ip_(max_per_ip) {}
  // A slot, or nullopt when a cap is reached.
  std::optional<ConnectionSlot> admit(const std::string& ip) {
    std::lock_guard lock(mutex_);
    if (total_ >= max_total_) return std::nullopt;
    size_t& mine = per_ip_[ip];
    if (max_per_ip_ != 0 && mine >= max_per_ip_) return std::nullopt;
    ++mine;
    ++total_;
    return ConnectionSlot(shared_from_this(), ip, ++next_id_);
  }
  void release(const std::string& ip) {
    std::lock_guard lock(mutex_);
    --total_;
    auto it = per_ip_.find(ip);
    if (it != per_ip_.end() && --it->second == 0) per_ip_.erase(it);
  }
  size_t total() {
    std::lock_guard lock(mutex_);
    return total_;
  }

 private:
  const uint32_t max_total_;
  const uint32_t max_per_ip_;
  std::mutex mutex_;
  size_t total_ = 0;
  uint64_t next_id_ = 0;
  std::unordered_map<std::string, size_t> per_ip_;
};

inline ConnectionSlot::~ConnectionSlot() {
  if (counter_) counter_->release(ip_);
}

}  // namespace duelhall::server
