// Caps on open connections, overall and per IP address. A ConnectionSlot holds one place and
// gives it back when the connection object that owns it is destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "metrics/server_metrics.hpp"

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
  // Moves this place to another address (the client's, learnt from a trusted proxy's
  // X-Forwarded-For); false, keeping the old one, when that address is at its cap.
  bool rehome(const std::string& ip);
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
  // A slot, or nullopt when a cap is reached. A trusted proxy is not held to the per-address
  // cap: its clients are, once their requests name them (ConnectionSlot::rehome).
  std::optional<ConnectionSlot> admit(const std::string& ip, bool per_ip_cap = true) {
    std::lock_guard lock(mutex_);
    if (total_ >= max_total_) return std::nullopt;
    size_t& mine = per_ip_[ip];
    if (per_ip_cap && max_per_ip_ != 0 && mine >= max_per_ip_) return std::nullopt;
    ++mine;
    ++total_;
    metrics::server_metrics().connections.add();
    return ConnectionSlot(shared_from_this(), ip, ++next_id_);
  }
  void release(const std::string& ip) {
    std::lock_guard lock(mutex_);
    --total_;
    metrics::server_metrics().connections.sub();
    auto it = per_ip_.find(ip);
    if (it != per_ip_.end() && --it->second == 0) per_ip_.erase(it);
  }
  bool move(const std::string& from, const std::string& to) {
    std::lock_guard lock(mutex_);
    size_t& mine = per_ip_[to];
    if (max_per_ip_ != 0 && mine >= max_per_ip_) {
      if (mine == 0) per_ip_.erase(to);
      return false;
    }
    ++mine;
    auto it = per_ip_.find(from);
    if (it != per_ip_.end() && --it->second == 0) per_ip_.erase(it);
    return true;
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

inline bool ConnectionSlot::rehome(const std::string& ip) {
  if (ip == ip_ || !counter_) return true;
  if (!counter_->move(ip_, ip)) return false;
  ip_ = ip;
  return true;
}

inline ConnectionSlot::~ConnectionSlot() {
  if (counter_) counter_->release(ip_);
}

}  // namespace duelhall::server
