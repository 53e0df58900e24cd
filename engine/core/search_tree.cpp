#include "core/search_tree.hpp"

#include <cmath>

namespace duelhall::engine {

void SearchTree::clear() {
  nodes_.clear();
  nodes_.emplace_back();
}

int32_t SearchTree::find_edge(const Node& node, Seat seat, Action action) const {
  for (size_t i = 0; i < node.edges.size(); ++i) {
    if (node.edges[i].action == action && node.edges[i].seat == seat) {
      return static_cast<int32_t>(i);
    }
  }
  return -1;
}

SearchTree::Pick SearchTree::select(uint32_t node_index, Seat seat,
                                    const std::vector<Action>& legal, Action hint, double c,
                                    double bias, Rng& rng) {
  // Edges are appended, never reordered: child links name them by index.
  scratch_.clear();
  size_t untried = 0;
  for (Action action : legal) {
    Node& node = nodes_[node_index];
    int32_t found = find_edge(node, seat, action);
    if (found < 0) {
      found = static_cast<int32_t>(node.edges.size());
      node.edges.push_back({action, seat, 0, 0, 0.0});
    }
    Edge& e = node.edges[static_cast<size_t>(found)];
    ++e.available;
    scratch_.push_back(static_cast<uint32_t>(found));
    if (e.visits == 0) ++untried;
  }
  const std::vector<Edge>& edges = nodes_[node_index].edges;
  uint32_t hinted = UINT32_MAX;
  for (uint32_t index : scratch_) {
    if (edges[index].action == hint) hinted = index;
  }
  if (hinted != UINT32_MAX && edges[hinted].visits == 0) return {hinted, true};
  if (untried > 0) {
    uint32_t nth = rng.below(static_cast<uint32_t>(untried));
    for (uint32_t index : scratch_) {
      if (edges[index].visits == 0 && nth-- == 0) return {index, true};
    }
  }
  uint32_t best = scratch_.front();
  double best_score = -1e300;
  for (uint32_t index : scratch_) {
    const Edge& e = edges[index];
    const double visits = e.visits;
    double score =
        e.reward / visits + c * std::sqrt(std::log(static_cast<double>(e.available)) / visits);
    if (index == hinted) score += bias / (visits + 1);
    if (score > best_score) {
      best_score = score;
      best = index;
    }
  }
  return {best, false};
}

uint32_t SearchTree::child(uint32_t node_index, uint32_t edge, uint64_t key, bool& created) {
  for (const Child& c : nodes_[node_index].children) {
    if (c.edge == edge && c.key == key) {
      created = false;
      return c.node;
    }
  }
  const auto made = static_cast<uint32_t>(nodes_.size());
  nodes_.emplace_back();
  nodes_[node_index].children.push_back({key, edge, made});
  created = true;
  return made;
}

void SearchTree::update(uint32_t node, uint32_t edge, double reward) {
  Edge& e = nodes_[node].edges[edge];
  ++e.visits;
  e.reward += reward;
}

Action SearchTree::best_root_action(Seat seat, const std::vector<Action>& legal) const {
  const Node& root = nodes_[kRoot];
  Action best = legal.front();
  uint32_t best_visits = 0;
  double best_mean = -1;
  for (Action action : legal) {
    const int32_t found = find_edge(root, seat, action);
    if (found < 0) continue;
    const Edge& e = root.edges[static_cast<size_t>(found)];
    const double mean = e.visits ? e.reward / e.visits : 0.0;
    if (e.visits > best_visits || (e.visits == best_visits && mean > best_mean)) {
      best = action;
      best_visits = e.visits;
      best_mean = mean;
    }
  }
  return best;
}

size_t SearchTree::bytes() const {
  size_t total = nodes_.capacity() * sizeof(Node) + scratch_.capacity() * sizeof(uint32_t);
  for (const Node& node : nodes_) {
    total += node.edges.capacity() * sizeof(Edge) + node.children.capacity() * sizeof(Child);
  }
  return total;
}

}  // namespace duelhall::engine
