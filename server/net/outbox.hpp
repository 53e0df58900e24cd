// Frames collected while a handler runs and sent once it is done, so handlers never touch
// sockets and nothing is sent while a registry lock or a half-updated match is held. A peer's
// frames of one outbox are handed over together, so its connection writes them at once.
#pragma once

#include <boost/container/small_vector.hpp>
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
    // A short outbox (one action's updates) is searched for each peer's other frames; a long one
    // (a broadcast to many peers) is sent frame by frame.
    constexpr size_t kGrouped = 16;
    for (size_t i = 0; i < items_.size(); ++i) {
      auto& [peer, frame] = items_[i];
      if (!peer) continue;  // went with an earlier frame of its peer
      size_t others = 0;
      if (items_.size() <= kGrouped) {
        for (size_t j = i + 1; j < items_.size(); ++j) others += items_[j].first == peer ? 1 : 0;
      }
      if (others == 0) {
        peer->send(std::move(frame));
        continue;
      }
      std::vector<Frame> frames;
      frames.reserve(others + 1);
      frames.push_back(std::move(frame));
      for (size_t j = i + 1; j < items_.size(); ++j) {
        if (items_[j].first != peer) continue;
        frames.push_back(std::move(items_[j].second));
        items_[j].first.reset();
      }
      peer->send_all(std::move(frames));
    }
    items_.clear();
  }
  void append(Outbox&& other) {
    for (auto& item : other.items_) items_.push_back(std::move(item));
    other.items_.clear();
  }
  bool empty() const { return items_.empty(); }

 private:
  // An action's frames (one per seat, a spectators' one) fit without allocating.
  boost::container::small_vector<std::pair<std::shared_ptr<Peer>, Frame>, 4> items_;
};

}  // namespace duelhall::server
