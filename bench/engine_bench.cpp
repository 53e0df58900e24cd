// Engine benchmark, generic over the registry: for every registered ruleset and its seat counts
// of interest, random legal play (games and actions per second on one core) and the cost of
// view() plus serialization for one viewer. Each figure is the median of several runs; a
// baseline of fixed work on the match generator (ChaCha20 words), measured in the same runs,
// gives ratios that stay comparable on a shared, noisy machine.
//
// Usage: engine_bench [runs=7] [games=2000]     engine_bench --lengths <games>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/registry.hpp"

using namespace duelhall::engine;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Fixed work: 4M bounded draws from the match generator. Returns draws per second.
double baseline_rng() {
  Rng rng(seed_from_number(42));
  uint64_t sink = 0;
  const int n = 1 << 22;
  auto start = Clock::now();
  for (int i = 0; i < n; ++i) sink += rng.below(54);
  double s = seconds_since(start);
  if (sink == 1) std::puts("");  // keeps the loop
  return n / s;
}

struct PlayFigures {
  double games_per_s = 0;
  double actions_per_s = 0;
  long long actions = 0;
  long long longest = 0;
};

// Random legal play, as a RandomBot would: a random pending seat picks a random legal action,
// resigning only when nothing else is legal.
PlayFigures play(const Registry& registry, const std::string& ruleset, int seats, int games,
                 uint64_t first_seed) {
  PlayFigures f;
  const std::vector<uint8_t>& resign_kinds = registry.find(ruleset)->resign_kinds;
  Rng rng(seed_from_number(first_seed * 7919));
  std::vector<Action> legal;
  auto start = Clock::now();
  for (int g = 0; g < games; ++g) {
    auto created = registry.create(ruleset, seats, seed_from_number(first_seed + g), {});
    State& state = *created.state;
    long long length = 0;
    while (!state.terminal()) {
      const SeatMask pending = state.pending();
      Seat seat = pending.first();
      if (pending.count() > 1) {
        int pick = static_cast<int>(rng.below(static_cast<uint32_t>(pending.count())));
        for (Seat s = 0; s < seats; ++s) {
          if (pending.has(s) && pick-- == 0) seat = s;
        }
      }
      state.legal_actions(seat, legal);
      drop_avoided(legal, resign_kinds);
      state.apply(seat, legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      ++length;
    }
    f.actions += length;
    f.longest = std::max(f.longest, length);
  }
  const double s = seconds_since(start);
  f.games_per_s = games / s;
  f.actions_per_s = static_cast<double>(f.actions) / s;
  return f;
}

// States met in random play, to view: every 5th state of a few games.
std::vector<std::unique_ptr<State>> sample_states(const Registry& registry,
                                                  const std::string& ruleset, int seats) {
  std::vector<std::unique_ptr<State>> states;
  Rng rng(seed_from_number(99));
  std::vector<Action> legal;
  for (int g = 0; g < 20; ++g) {
    auto state = registry.create(ruleset, seats, seed_from_number(1000 + g), {}).state;
    for (int step = 0; !state->terminal(); ++step) {
      if (step % 5 == 0) states.push_back(state->clone());
      Seat seat = state->pending().first();
      state->legal_actions(seat, legal);
      drop_avoided(legal, registry.find(ruleset)->resign_kinds);
      state->apply(seat, legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
  }
  return states;
}

// Nanoseconds per view() of one seat, bytes included (view() returns the serialized message).
double view_ns(const std::vector<std::unique_ptr<State>>& states) {
  size_t bytes = 0;
  const int rounds = 20;
  auto start = Clock::now();
  for (int r = 0; r < rounds; ++r) {
    for (const auto& state : states) {
      bytes += state->view(Viewer::of_seat(r % state->num_seats())).size();
    }
  }
  const double s = seconds_since(start);
  if (bytes == 1) std::puts("");
  return s * 1e9 / (rounds * static_cast<double>(states.size()));
}

int lengths(const Registry& registry, int games) {
  for (const RulesetInfo& info : registry.all()) {
    for (int seats = info.min_seats; seats <= info.max_seats; ++seats) {
      PlayFigures f = play(registry, info.name, seats, games, 1'000'000);
      std::printf("%-14s %d seats: %d games, mean %.1f actions, longest %lld (bound %d)\n",
                  info.name.c_str(), seats, games, static_cast<double>(f.actions) / games,
                  f.longest, info.max_game_length);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Registry registry = builtin_registry();
  if (argc == 3 && std::strcmp(argv[1], "--lengths") == 0) {
    return lengths(registry, std::atoi(argv[2]));
  }
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const int games = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2000;
  std::printf("engine benchmark: median of %d runs, %d games per run, one core\n", runs, games);
  std::vector<double> baselines;
  for (const RulesetInfo& info : registry.all()) {
    std::vector<int> seat_counts{info.min_seats};
    if (info.max_seats >= 4 && info.min_seats < 4) seat_counts.push_back(4);
    for (int seats : seat_counts) {
      std::vector<double> gps, aps, vns, base;
      long long longest = 0;
      auto states = sample_states(registry, info.name, seats);
      for (int run = 0; run < runs; ++run) {
        base.push_back(baseline_rng());
        PlayFigures f = play(registry, info.name, seats, games, 1 + run * games);
        gps.push_back(f.games_per_s);
        aps.push_back(f.actions_per_s);
        longest = std::max(longest, f.longest);
        vns.push_back(view_ns(states));
      }
      const double b = median(base);
      baselines.insert(baselines.end(), base.begin(), base.end());
      std::printf(
          "%-14s %d seats: %9.0f games/s  %10.0f actions/s  view %6.0f ns  (longest game %lld "
          "actions)\n",
          info.name.c_str(), seats, median(gps), median(aps), median(vns), longest);
      std::printf(
          "%-14s          ratios to baseline: games %.5f  actions %.4f  view x %.1f "
          "baseline draws\n",
          "", median(gps) / b, median(aps) / b, median(vns) * 1e-9 * b);
    }
  }
  std::printf("baseline: %.0f bounded ChaCha20 draws/s (median of %zu)\n", median(baselines),
              baselines.size());
  return 0;
}
