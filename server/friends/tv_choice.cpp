#include "friends/tv_choice.hpp"

#include <tuple>

namespace duelhall::server {
namespace {

// Whether `a` is a better feature than `b`.
bool better(const TvCandidate& a, const TvCandidate& b) {
  if (a.rated != b.rated) return a.rated;
  if (a.rated && a.rating != b.rating) return a.rating > b.rating;
  return std::tie(a.playing_since_ms, a.match_id) < std::tie(b.playing_since_ms, b.match_id);
}

}  // namespace

uint64_t choose_feature(const std::vector<TvCandidate>& in_play, uint64_t current) {
  const TvCandidate* best = nullptr;
  for (const auto& candidate : in_play) {
    if (candidate.match_id == current) return current;
    if (!best || better(candidate, *best)) best = &candidate;
  }
  return best ? best->match_id : 0;
}

}  // namespace duelhall::server
