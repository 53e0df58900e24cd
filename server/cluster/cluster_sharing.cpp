// How a node shares the cluster's work out (docs/cluster.md): which nodes count as alive (seen
// recently, well inside the lease), where a new match goes (the least loaded of those, counting
// the placements made since the node table was read), and which orphans of a dead node this
// node adopts (its share by load; the others' after two heartbeats).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <tuple>

#include "cluster/cluster_node.hpp"
#include "cluster/placement.hpp"

namespace duelhall::cluster {

void ClusterNode::set_nodes(std::vector<NodeInfo> nodes) {
  nodes_ = std::move(nodes);
  nodes_read_at_ = Clock::now();
  placed_since_read_.clear();
}

std::chrono::milliseconds ClusterNode::stale_after() const {
  // Two heartbeats and a second of slack (a loaded machine answers late), kept between half and
  // four fifths of the lease: a dead node is no longer offered before its matches can be adopted.
  const std::chrono::milliseconds window = options_.heartbeat * 2 + std::chrono::seconds(1);
  return std::clamp(window, std::chrono::milliseconds(options_.lease / 2),
                    std::chrono::milliseconds(options_.lease * 4 / 5));
}

bool ClusterNode::seen_recently(const std::string& name) const {
  if (name == options_.node) return true;
  std::lock_guard lock(mutex_);
  const auto since_read =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - nodes_read_at_);
  for (const auto& n : nodes_) {
    if (n.name == name) {
      return std::chrono::milliseconds(n.heartbeat_age_ms) + since_read < stale_after();
    }
  }
  return false;
}

std::vector<NodeInfo> ClusterNode::recent_nodes() const {
  const auto since_read =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - nodes_read_at_);
  std::vector<NodeInfo> out;
  for (NodeInfo n : nodes_) {
    const bool recent = n.name == options_.node ||
                        std::chrono::milliseconds(n.heartbeat_age_ms) + since_read < stale_after();
    if (!recent) continue;
    if (auto placed = placed_since_read_.find(n.name); placed != placed_since_read_.end()) {
      n.matches += placed->second;
      n.room = n.room > placed->second ? n.room - placed->second : 0;
    }
    out.push_back(std::move(n));
  }
  return out;
}

void ClusterNode::adopt_orphans(std::vector<Orphan> orphans) {
  std::vector<Orphan> mine = my_share(orphans);
  uint32_t room = options_.max_matches;
  if (hooks_.live_matches) room = room > hooks_.live_matches() ? room - hooks_.live_matches() : 0;
  for (const Orphan& orphan : mine) {
    if (room == 0) break;
    --room;
    adopt(orphan);
  }
}

std::vector<Orphan> ClusterNode::my_share(const std::vector<Orphan>& orphans) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  std::map<uint64_t, Clock::time_point> seen;
  for (const Orphan& orphan : orphans) {
    auto first = orphans_seen_.find(orphan.match);
    seen[orphan.match] = first == orphans_seen_.end() ? now : first->second;
  }
  orphans_seen_ = std::move(seen);
  // Every survivor shares the orphans out the same way, from the same heartbeat's table: in
  // match order, each to the survivor with room that then hosts the fewest (ties: the name that
  // sorts first). A survivor that reads other figures, or dies first, leaves some orphans to
  // nobody for a moment: those go to whoever sees them two heartbeats on.
  std::vector<NodeInfo> survivors;
  for (NodeInfo& n : recent_nodes()) {
    if (n.room > 0) survivors.push_back(std::move(n));
  }
  std::vector<Orphan> sorted = orphans;
  std::sort(sorted.begin(), sorted.end(),
            [](const Orphan& a, const Orphan& b) { return a.match < b.match; });
  std::vector<Orphan> mine;
  for (const Orphan& orphan : sorted) {
    NodeInfo* to = nullptr;
    for (NodeInfo& n : survivors) {
      if (n.room == 0 || n.name == orphan.owner) continue;
      if (!to || std::tie(n.matches, n.name) < std::tie(to->matches, to->name)) to = &n;
    }
    const bool overdue = now - orphans_seen_[orphan.match] >= options_.heartbeat * 2;
    if ((to && to->name == options_.node) || overdue || survivors.empty()) {
      mine.push_back(orphan);
    }
    if (to) {
      ++to->matches;
      --to->room;
    }
  }
  return mine;
}

void ClusterNode::adopt(const Orphan& orphan) {
  auto self = shared_from_this();
  directory_.adopt(options_.node, orphan, options_.lease,
                   [self, orphan](std::optional<uint64_t> epoch) {
                     if (!epoch || *epoch == 0) return;  // another node was first
                     spdlog::info("cluster: adopted match {} from {} (epoch {})", orphan.match,
                                  orphan.owner, *epoch);
                     if (self->hooks_.adopted && self->hooks_.adopted(orphan, *epoch)) return;
                     spdlog::warn("cluster: match {} cannot be rebuilt here; released",
                                  orphan.match);
                     self->match_closed(orphan.match);
                     self->unpublish(orphan.match);
                   });
}

std::optional<NodeInfo> ClusterNode::placement() const {
  if (options_.place_locally) {
    const uint32_t live = hooks_.live_matches ? hooks_.live_matches() : 0;
    const bool taking = !hooks_.taking_matches || hooks_.taking_matches();
    if (taking && live < options_.max_matches) {
      return NodeInfo{options_.node, options_.advertise, live, options_.max_matches - live};
    }
  }
  std::lock_guard lock(mutex_);
  return least_loaded(recent_nodes());
}

std::optional<NodeInfo> ClusterNode::place() {
  auto chosen = placement();
  if (chosen) {
    std::lock_guard lock(mutex_);
    ++placed_since_read_[chosen->name];
  }
  return chosen;
}

}  // namespace duelhall::cluster
