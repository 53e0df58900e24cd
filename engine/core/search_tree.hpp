// The tree of the expert bot's information-set Monte Carlo tree search (core/expert_bot.hpp).
//
// A node stands for what the searching seat knows at that point of a line of play: the child
// reached through an edge is keyed by the searcher's view after the step (its hash), so that
// every hidden difference between determinizations (the opponent's cards, a secret choice) leads
// to the same node, while every difference the searcher sees (its own draw, a die) leads to its
// own node. Dice and reshuffles are therefore chance nodes whose children are the outcomes the
// searcher can tell apart, visited as often as the searcher's generator draws them.
//
// Edges carry the statistics of one seat's action. Actions legal in one determinization may not
// be in another (the opponent's hand differs), so each edge counts how often it was available
// and the selection is UCB1 over availability (Cowling, Powley and Whitehouse, "Information Set
// Monte Carlo Tree Search", 2012).
#pragma once

#include <cstdint>
#include <vector>

#include "core/action.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace duelhall::engine {

class SearchTree {
 public:
  static constexpr uint32_t kRoot = 0;

  struct Edge {
    Action action;
    Seat seat = 0;
    uint32_t visits = 0;
    uint32_t available = 0;
    double reward = 0;  // sum of the rewards of `seat` through this edge
  };
  struct Pick {
    uint32_t edge = 0;
    bool untried = false;  // the edge had never been followed: expand after it
  };

  SearchTree() { clear(); }
  void clear();

  // Chooses among `legal` (sorted, non-empty) for `seat` at `node`: `hint` (the rollout
  // policy's own choice) if never tried here, then the other untried actions (uniformly at
  // random), then the best UCB1 score with exploration constant `c` plus a progressive bias
  // `bias / (visits + 1)` for `hint`, so that with few iterations the search keeps the policy's
  // move unless its rivals do clearly better. Counts one availability for every legal action.
  Pick select(uint32_t node, Seat seat, const std::vector<Action>& legal, Action hint, double c,
              double bias, Rng& rng);
  const Edge& edge(uint32_t node, uint32_t edge) const { return nodes_[node].edges[edge]; }

  // The child of `node` through `edge` whose observation hashes to `key`; `created` says whether
  // it was made now.
  uint32_t child(uint32_t node, uint32_t edge, uint64_t key, bool& created);

  void update(uint32_t node, uint32_t edge, double reward);

  // The root's most visited action of `seat` among `legal`; ties go to the higher mean reward.
  Action best_root_action(Seat seat, const std::vector<Action>& legal) const;

  size_t node_count() const { return nodes_.size(); }
  // Bytes the tree holds (nodes, edges and child links, by capacity).
  size_t bytes() const;

 private:
  struct Child {
    uint64_t key = 0;
    uint32_t edge = 0;
    uint32_t node = 0;
  };
  struct Node {
    std::vector<Edge> edges;
    std::vector<Child> children;
  };
  int32_t find_edge(const Node& node, Seat seat, Action action) const;

  std::vector<Node> nodes_;
  std::vector<uint32_t> scratch_;
};

}  // namespace duelhall::engine
