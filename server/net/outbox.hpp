// Frames collected while a handler runs and sent once it is done, so handlers never touch
// sockets and nothing is sent while a registry lock or a half-updated match is held.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "net/peer.hpp"

namespace duelhall::server {

class Outbox {
 public:
  void add(std::shared_ptr<Peer> peer, Frame frame) {
    if (peer) items_.emplace_back(std::move(peer), std::move(frame));
  }
  void flush() {
    for (auto& [peer, frame] : items_) peer->send(std::move(frame));
    items_.clear();
  }
  void append(Outbox&& other) {
    for (auto& item : other.items_) items_.push_back(std::move(item));
    other.items_.clear();
  }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<std::pair<std::shared_ptr<Peer>, Frame>> items_;
};

}  // namespace duelhall::server
