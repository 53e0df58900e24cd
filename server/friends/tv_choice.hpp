// Which live match the TV of a ruleset features. Pure: the room passes the matches in play.
//
// The rule: the highest-rated rated match (the mean of its two seats' ratings), else the
// longest-running match (the earliest seen in play); ties go to the lower match id. A featured
// match stays featured while it is in play, so the TV switches only when it ends.
#pragma once

#include <cstdint>
#include <vector>

namespace duelhall::server {

struct TvCandidate {
  uint64_t match_id = 0;
  bool rated = false;
  double rating = 0;              // mean of the seats' ratings, for a rated match
  int64_t playing_since_ms = 0;   // when the match was first seen in play
};

// The match to feature among `in_play` (one ruleset's public matches in play that allow
// spectators), given the one featured now (0: none); 0 when nothing is in play.
uint64_t choose_feature(const std::vector<TvCandidate>& in_play, uint64_t current);

}  // namespace duelhall::server
