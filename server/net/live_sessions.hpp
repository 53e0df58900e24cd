// The open WebSocket sessions, so that a draining server can tell each one it is going down.
// Locked only when a session opens or closes and when a drain walks them; what it walks is
// copied under the lock and called outside it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/peer.hpp"

namespace duelhall::server {

class Drainable {
 public:
  virtual ~Drainable() = default;
  // Sends `notice`, then closes with WebSocket code 1012 (service restart) and `reason`.
  // Thread-safe.
  virtual void going_away(Frame notice, const std::string& reason) = 0;
};

class LiveSessions {
 public:
  void add(uint64_t id, std::weak_ptr<Drainable> session) {
    std::lock_guard lock(mutex_);
    sessions_[id] = std::move(session);
  }
  void remove(uint64_t id) {
    std::lock_guard lock(mutex_);
    sessions_.erase(id);
  }
  size_t size() {
    std::lock_guard lock(mutex_);
    return sessions_.size();
  }
  void each(const std::function<void(Drainable&)>& visit) {
    std::vector<std::shared_ptr<Drainable>> alive;
    {
      std::lock_guard lock(mutex_);
      for (auto& [id, weak] : sessions_) {
        if (auto s = weak.lock()) alive.push_back(std::move(s));
      }
    }
    for (auto& s : alive) visit(*s);
  }

 private:
  std::mutex mutex_;
  std::map<uint64_t, std::weak_ptr<Drainable>> sessions_;
};

}  // namespace duelhall::server
