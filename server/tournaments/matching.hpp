// Maximum matching in a general graph (Edmonds' blossom algorithm): the Swiss pairing's oracle
// for "does a pairing without repeats (and within this score gap) exist at all?", which plain
// backtracking can only answer by trying every pairing.
#pragma once

#include <functional>
#include <optional>
#include <vector>

namespace duelhall::tournaments {

// The partner of each vertex 0..n-1 in a perfect matching of the graph whose edges `joined`
// says, or nothing when the graph has none. O(n^3) at worst; stops at the first vertex
// no augmenting path reaches.
std::optional<std::vector<int>> perfect_matching(int n, const std::function<bool(int, int)>& joined);

}  // namespace duelhall::tournaments
