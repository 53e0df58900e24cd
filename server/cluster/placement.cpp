#include "cluster/placement.hpp"

#include <tuple>

namespace duelhall::cluster {

std::optional<NodeInfo> least_loaded(const std::vector<NodeInfo>& nodes) {
  const NodeInfo* best = nullptr;
  for (const NodeInfo& node : nodes) {
    if (node.room == 0) continue;
    const auto key = [](const NodeInfo& n) {
      return std::make_tuple(n.matches, -static_cast<int64_t>(n.room), n.name);
    };
    if (!best || key(node) < key(*best)) best = &node;
  }
  if (!best) return std::nullopt;
  return *best;
}

}  // namespace duelhall::cluster
