// Where a new match goes: the least-loaded live node that has room.
#pragma once

#include <optional>
#include <vector>

#include "cluster/cluster_directory.hpp"

namespace duelhall::cluster {

// The node with room (room > 0) hosting the fewest live matches; ties go to the one with more
// room, then to the name that sorts first (so that every node picks the same one). nullopt when
// no node has room.
std::optional<NodeInfo> least_loaded(const std::vector<NodeInfo>& nodes);

}  // namespace duelhall::cluster
