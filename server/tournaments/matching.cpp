#include "tournaments/matching.hpp"

#include <deque>

namespace duelhall::tournaments {
namespace {

class Blossom {
 public:
  Blossom(int n, const std::function<bool(int, int)>& joined)
      : n_(n), adjacent_(n), match_(n, -1), parent_(n), base_(n), used_(n), in_blossom_(n) {
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        if (joined(a, b)) {
          adjacent_[a].push_back(b);
          adjacent_[b].push_back(a);
        }
      }
    }
  }

  bool perfect() {
    for (int v = 0; v < n_; ++v) {  // a greedy start leaves few vertices to augment
      if (match_[v] != -1) continue;
      for (int to : adjacent_[v]) {
        if (match_[to] == -1) {
          match_[v] = to;
          match_[to] = v;
          break;
        }
      }
    }
    for (int v = 0; v < n_; ++v) {
      if (match_[v] != -1) continue;
      int end = augmenting_path(v);
      if (end == -1) return false;  // some maximum matching leaves v alone
      while (end != -1) {
        int previous = parent_[end];
        int next = match_[previous];
        match_[end] = previous;
        match_[previous] = end;
        end = next;
      }
    }
    return true;
  }
  const std::vector<int>& match() const { return match_; }

 private:
  int common_base(int a, int b) {
    std::vector<bool> seen(n_, false);
    for (;;) {
      a = base_[a];
      seen[a] = true;
      if (match_[a] == -1) break;
      a = parent_[match_[a]];
    }
    for (;;) {
      b = base_[b];
      if (seen[b]) return b;
      b = parent_[match_[b]];
    }
  }

  void mark_path(int v, int base, int child) {
    while (base_[v] != base) {
      in_blossom_[base_[v]] = in_blossom_[base_[match_[v]]] = true;
      parent_[v] = child;
      child = match_[v];
      v = parent_[match_[v]];
    }
  }

  int augmenting_path(int root) {
    used_.assign(n_, false);
    parent_.assign(n_, -1);
    for (int i = 0; i < n_; ++i) base_[i] = i;
    used_[root] = true;
    std::deque<int> queue{root};
    while (!queue.empty()) {
      int v = queue.front();
      queue.pop_front();
      for (int to : adjacent_[v]) {
        if (base_[v] == base_[to] || match_[v] == to) continue;
        if (to == root || (match_[to] != -1 && parent_[match_[to]] != -1)) {
          int base = common_base(v, to);
          in_blossom_.assign(n_, false);
          mark_path(v, base, to);
          mark_path(to, base, v);
          for (int i = 0; i < n_; ++i) {
            if (!in_blossom_[base_[i]]) continue;
            base_[i] = base;
            if (!used_[i]) {
              used_[i] = true;
              queue.push_back(i);
            }
          }
        } else if (parent_[to] == -1) {
          parent_[to] = v;
          if (match_[to] == -1) return to;
          used_[match_[to]] = true;
          queue.push_back(match_[to]);
        }
      }
    }
    return -1;
  }

  int n_;
  std::vector<std::vector<int>> adjacent_;
  std::vector<int> match_, parent_, base_;
  std::vector<bool> used_, in_blossom_;
};

}  // namespace

std::optional<std::vector<int>> perfect_matching(int n,
                                                const std::function<bool(int, int)>& joined) {
  if (n % 2 != 0) return std::nullopt;
  Blossom blossom(n, joined);
  if (!blossom.perfect()) return std::nullopt;
  return blossom.match();
}

}  // namespace duelhall::tournaments
