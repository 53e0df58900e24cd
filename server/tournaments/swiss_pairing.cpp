#include "tournaments/swiss_pairing.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "tournaments/matching.hpp"

namespace duelhall::tournaments {
namespace {

constexpr int kSearchBudget = 200000;

class RoundPairer {
 public:
  RoundPairer(const std::vector<SwissEntrant>& ranked, const HaveMet& have_met)
      : ranked_(ranked), n_(static_cast<int>(ranked.size())), met_(n_, std::vector<bool>(n_)) {
    for (int a = 0; a < n_; ++a) {
      for (int b = a + 1; b < n_; ++b) met_[a][b] = met_[b][a] = have_met(ranked[a].id, ranked[b].id);
    }
  }

  SwissPairing pair() {
    SwissPairing result;
    int bye = choose_bye();
    std::vector<int> rest;
    for (int i = 0; i < n_; ++i) {
      if (i != bye) rest.push_back(i);
    }
    if (bye >= 0) result.bye = ranked_[bye].id;
    std::optional<std::vector<int>> matching = matching_within(rest, kNoGap, false);
    repeats_ok_ = !matching;
    result.repeats_forced = repeats_ok_;
    std::set<int32_t> gaps;
    for (int a : rest) {
      for (int b : rest) gaps.insert(std::abs(ranked_[a].points - ranked_[b].points));
    }
    for (int32_t gap : gaps) {
      matching = matching_within(rest, gap, repeats_ok_);
      if (matching) {
        gap_ = gap;
        break;
      }
    }
    if (gaps.empty()) gap_ = 0;
    result.score_gap = gap_;
    partner_.assign(n_, -1);
    if (!rest.empty() && !search(rest)) {
      result.search_gave_up = true;
      for (size_t i = 0; i < rest.size(); ++i) partner_[rest[i]] = rest[(*matching)[i]];
    }
    seat_boards(rest, result);
    return result;
  }

 private:
  static constexpr int32_t kNoGap = 1 << 30;

  bool allowed(int a, int b, int32_t gap, bool repeats_ok) const {
    return (repeats_ok || !met_[a][b]) && std::abs(ranked_[a].points - ranked_[b].points) <= gap;
  }

  // A perfect matching of `players` (by position in `players`), or nothing.
  std::optional<std::vector<int>> matching_within(const std::vector<int>& players, int32_t gap,
                                   bool repeats_ok) const {
    return perfect_matching(static_cast<int>(players.size()), [&](int a, int b) {
      return allowed(players[a], players[b], gap, repeats_ok);
    });
  }

  int choose_bye() const {
    if (n_ % 2 == 0) return -1;
    int fallback = -1;
    for (int i = n_ - 1; i >= 0; --i) {
      if (ranked_[i].had_bye) continue;
      if (fallback == -1) fallback = i;
      std::vector<int> rest;
      for (int j = 0; j < n_; ++j) {
        if (j != i) rest.push_back(j);
      }
      if (matching_within(rest, kNoGap, false)) return i;
    }
    return fallback == -1 ? n_ - 1 : fallback;
  }

  bool seat_clash(int a, int b) const {
    int32_t x = ranked_[a].seat_balance, y = ranked_[b].seat_balance;
    return (x > 0 && y > 0) || (x < 0 && y < 0);
  }

  bool search(const std::vector<int>& rest) {
    if (++steps_ > kSearchBudget) return false;
    int top = -1;
    for (int i : rest) {
      if (partner_[i] == -1) {
        top = i;
        break;
      }
    }
    if (top == -1) return true;
    std::vector<int> group;  // top's unpaired score group, in rank order (top first)
    for (int i : rest) {
      if (partner_[i] == -1 && ranked_[i].points == ranked_[top].points) group.push_back(i);
    }
    int half = static_cast<int>(group.size()) / 2;
    std::vector<std::tuple<int, int32_t, int, int, int>> candidates;
    for (int i : rest) {
      if (i == top || partner_[i] != -1 || !allowed(top, i, gap_, repeats_ok_)) continue;
      int position = static_cast<int>(std::find(group.begin(), group.end(), i) - group.begin());
      int from_half = position < static_cast<int>(group.size()) ? std::abs(position - half) : i;
      candidates.emplace_back(met_[top][i] ? 1 : 0,
                              std::abs(ranked_[top].points - ranked_[i].points),
                              seat_clash(top, i) ? 1 : 0, from_half, i);
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& candidate : candidates) {
      int other = std::get<4>(candidate);
      partner_[top] = other;
      partner_[other] = top;
      if (search(rest)) return true;
      partner_[top] = partner_[other] = -1;
      if (steps_ > kSearchBudget) return false;
    }
    return false;
  }

  void seat_boards(const std::vector<int>& rest, SwissPairing& result) const {
    int board = 0;
    for (int a : rest) {
      int b = partner_[a];
      if (b < a) continue;  // a is the higher-ranked of the two
      const SwissEntrant& high = ranked_[a];
      const SwissEntrant& low = ranked_[b];
      bool high_first;
      if (high.seat_balance != low.seat_balance) {
        high_first = high.seat_balance < low.seat_balance;
      } else if (high.last_seat != low.last_seat && high.last_seat != 0 && low.last_seat != 0) {
        high_first = high.last_seat == 2;
      } else {
        high_first = board % 2 == 0;
      }
      result.boards.emplace_back(high_first ? high.id : low.id, high_first ? low.id : high.id);
      ++board;
    }
  }

  const std::vector<SwissEntrant>& ranked_;
  int n_;
  std::vector<std::vector<bool>> met_;
  std::vector<int> partner_;
  bool repeats_ok_ = false;
  int32_t gap_ = kNoGap;
  int steps_ = 0;
};

}  // namespace

void rank_entrants(std::vector<SwissEntrant>& entrants) {
  std::sort(entrants.begin(), entrants.end(), [](const SwissEntrant& a, const SwissEntrant& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.rating != b.rating) return a.rating > b.rating;
    return a.id < b.id;
  });
}

SwissPairing pair_swiss_round(std::vector<SwissEntrant> entrants, const HaveMet& have_met) {
  rank_entrants(entrants);
  RoundPairer pairer(entrants, have_met);
  return pairer.pair();
}

}  // namespace duelhall::tournaments
