// Bot arena: N two-player games between two bot levels of one ruleset, seats alternating, each
// game on one thread (--threads plays several games at once, one pair of bots each). Prints A's
// win rate with its 95% Wilson interval, the draws, moves per second, each bot's median and p99
// time per move (wall clock, and the thread's CPU time: the cost on one core under any load),
// and the memory of a thinking expert (its largest search tree, and the process's peak resident
// set). Each bot's moves per CPU second are the moves one core gives it under any load (the
// figure a host sizes --bot-threads by); the last line holds them as key=value pairs.
//
// Usage: bot_arena --ruleset R --a LEVEL --b LEVEL --games N [--iterations K] [--ms M]
//                  [--seed S] [--param name=value]... [--exploration C] [--rollout-random P]
//                  [--bias B] [--threads T]
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "core/expert_bot.hpp"
#include "core/registry.hpp"

using namespace duelhall::engine;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  std::string ruleset;
  std::string a = "expert";
  std::string b = "heuristic";
  int games = 100;
  SearchBudget budget;
  uint64_t seed = 1;
  std::map<std::string, std::string> params;
  double exploration = -1;     // < 0: the bot's default
  double rollout_random = -1;  // < 0: the bot's default
  double bias = -1;            // < 0: the bot's default
  int threads = 1;             // games played at once, one pair of bots each
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "bot_arena: %s\nusage: bot_arena --ruleset R --a LEVEL --b LEVEL --games N "
               "[--iterations K] [--ms M] [--seed S] [--param name=value]... "
               "[--exploration C] [--rollout-random P] [--bias B] [--threads T]\n",
               why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + flag).c_str());
    const std::string value = argv[++i];
    if (flag == "--ruleset") {
      o.ruleset = value;
    } else if (flag == "--a") {
      o.a = value;
    } else if (flag == "--b") {
      o.b = value;
    } else if (flag == "--games") {
      o.games = std::atoi(value.c_str());
    } else if (flag == "--iterations") {
      o.budget.iterations = std::atoi(value.c_str());
    } else if (flag == "--ms") {
      o.budget.milliseconds = std::atoi(value.c_str());
    } else if (flag == "--seed") {
      o.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--param") {
      const size_t eq = value.find('=');
      if (eq == std::string::npos) usage("--param takes name=value");
      o.params[value.substr(0, eq)] = value.substr(eq + 1);
    } else if (flag == "--exploration") {
      o.exploration = std::atof(value.c_str());
    } else if (flag == "--threads") {
      o.threads = std::atoi(value.c_str());
    } else if (flag == "--bias") {
      o.bias = std::atof(value.c_str());
    } else if (flag == "--rollout-random") {
      o.rollout_random = std::atof(value.c_str());
    } else {
      usage(("unknown flag " + flag).c_str());
    }
  }
  if (o.ruleset.empty()) usage("--ruleset is required");
  if (o.games < 1) usage("--games must be at least 1");
  if (o.threads < 1 || o.threads > 64) usage("--threads must be 1 to 64");
  if (o.budget.iterations <= 0 && o.budget.milliseconds <= 0) {
    usage("--iterations or --ms must be above 0");
  }
  return o;
}

// A bot of `level`; an expert gets the arena's budget and tuning.
std::unique_ptr<Bot> make(const Registry& registry, const Options& o, const std::string& level) {
  auto bot = registry.make_bot(o.ruleset, level, o.budget);
  auto* expert = dynamic_cast<ExpertBot*>(bot.get());
  if (!expert || (o.exploration < 0 && o.rollout_random < 0 && o.bias < 0)) return bot;
  ExpertSettings settings = expert->settings();
  if (o.exploration >= 0) settings.exploration = o.exploration;
  if (o.rollout_random >= 0) settings.rollout_randomness = o.rollout_random;
  if (o.bias >= 0) settings.policy_bias = o.bias;
  return std::make_unique<ExpertBot>(settings, registry.make_bot(o.ruleset, "heuristic"));
}

// The calling thread's CPU time: what a move costs on one core, whatever else the machine runs.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct Side {
  std::string level;
  std::unique_ptr<Bot> bot;
  std::vector<double> move_ms;
  std::vector<double> cpu_ms;
  size_t peak_tree_bytes = 0;
  size_t peak_nodes = 0;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto at = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(at, v.size() - 1)];
}

// Wilson score interval at 95% for `wins` out of `n`.
void wilson(double wins, double n, double& lo, double& hi) {
  const double z = 1.959964;
  const double p = wins / n;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
  lo = centre - half;
  hi = centre + half;
}

struct Tally {
  Side sides[2];
  int a_wins = 0, b_wins = 0, draws = 0;
  long long moves = 0;
};

std::mutex progress_mutex;
int games_done = 0;
int done_a = 0, done_b = 0, done_draws = 0;  // running tally for the progress lines

// Plays games first, first + stride, ... below o.games; returns false after a refused action.
bool play_games(const Registry& registry, const Options& o, int first, int stride, Tally& t,
                Clock::time_point start) {
  const RulesetInfo* info = registry.find(o.ruleset);
  Side* sides = t.sides;
  for (int g = first; g < o.games; g += stride) {
    const uint64_t game_seed = o.seed * 1'000'003 + static_cast<uint64_t>(g);
    CreateResult created = registry.create(o.ruleset, 2, seed_from_number(game_seed), o.params);
    if (!created.state) usage(created.error.c_str());
    State& state = *created.state;
    const Seat a_seat = g % 2;  // seats alternate
    Rng bot_rng(seed_from_number(game_seed ^ 0x5eed'0000'0000ull));
    int steps = 0;
    while (!state.terminal()) {
      const Seat seat = state.pending().first();
      Side& side = sides[seat == a_seat ? 0 : 1];
      const auto before = Clock::now();
      const double cpu_before = thread_cpu_ms();
      const Action action = side.bot->choose(state, seat, bot_rng);
      side.cpu_ms.push_back(thread_cpu_ms() - cpu_before);
      side.move_ms.push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - before).count());
      if (auto* expert = dynamic_cast<ExpertBot*>(side.bot.get())) {
        side.peak_tree_bytes = std::max(side.peak_tree_bytes, expert->last_search().tree_bytes);
        side.peak_nodes = std::max(side.peak_nodes, expert->last_search().nodes);
      }
      const ApplyResult applied = state.apply(seat, action);
      if (!applied.ok()) {
        std::fprintf(stderr, "game %d: %s chose a refused action: %s\n", g, side.level.c_str(),
                     applied.reason.c_str());
        return false;
      }
      ++t.moves;
      if (++steps > info->max_game_length) {
        std::fprintf(stderr, "game %d ran past the ruleset's bound\n", g);
        return false;
      }
    }
    const Outcome outcome = state.outcome();
    if (outcome.draw()) {
      ++t.draws;
    } else if (outcome.winners.first() == a_seat) {
      ++t.a_wins;
    } else {
      ++t.b_wins;
    }
    const std::lock_guard lock(progress_mutex);
    if (outcome.draw()) {
      ++done_draws;
    } else {
      ++(outcome.winners.first() == a_seat ? done_a : done_b);
    }
    if (++games_done % 50 == 0) {  // progress on stderr: a long run can be watched
      std::fprintf(stderr, "after %d games: A %d, B %d, draws %d, %.0f s\n", games_done, done_a,
                   done_b, done_draws, std::chrono::duration<double>(Clock::now() - start).count());
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const Registry registry = builtin_registry();
  if (!registry.find(o.ruleset)) usage("unknown ruleset");
  // One pair of bots per thread: each thinking bot has a core of its own when cores are free.
  std::vector<Tally> tallies(static_cast<size_t>(o.threads));
  for (Tally& t : tallies) {
    t.sides[0].level = o.a;
    t.sides[1].level = o.b;
    for (Side& side : t.sides) side.bot = make(registry, o, side.level);
  }
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  std::vector<char> ok(tallies.size(), 0);
  for (int i = 0; i < o.threads; ++i) {
    threads.emplace_back([&, i] {
      ok[static_cast<size_t>(i)] =
          play_games(registry, o, i, o.threads, tallies[static_cast<size_t>(i)], start);
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) return 1;
  Side sides[2];
  int a_wins = 0, b_wins = 0, draws = 0;
  long long moves = 0;
  for (Tally& t : tallies) {
    a_wins += t.a_wins;
    b_wins += t.b_wins;
    draws += t.draws;
    moves += t.moves;
    for (int k = 0; k < 2; ++k) {
      Side& side = sides[k];
      side.level = t.sides[k].level;
      side.move_ms.insert(side.move_ms.end(), t.sides[k].move_ms.begin(), t.sides[k].move_ms.end());
      side.cpu_ms.insert(side.cpu_ms.end(), t.sides[k].cpu_ms.begin(), t.sides[k].cpu_ms.end());
      side.peak_tree_bytes = std::max(side.peak_tree_bytes, t.sides[k].peak_tree_bytes);
      side.peak_nodes = std::max(side.peak_nodes, t.sides[k].peak_nodes);
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  double lo = 0, hi = 0;
  wilson(a_wins, o.games, lo, hi);
  rusage usage_now{};
  getrusage(RUSAGE_SELF, &usage_now);

  std::printf("%s: %s (A) vs %s (B), %d games, seats alternating, budget %d iterations / %d ms\n",
              o.ruleset.c_str(), o.a.c_str(), o.b.c_str(), o.games, o.budget.iterations,
              o.budget.milliseconds);
  std::printf("A wins %d (%.1f%%, 95%% Wilson interval %.1f%% - %.1f%%), B wins %d, draws %d\n",
              a_wins, 100.0 * a_wins / o.games, 100 * lo, 100 * hi, b_wins, draws);
  std::printf("%lld moves in %.1f s: %.0f moves/s\n", moves, seconds,
              static_cast<double>(moves) / seconds);
  for (const Side& side : sides) {
    std::printf("%-9s %s: %zu moves, median %.3f ms, p99 %.3f ms, max %.3f ms per move",
                side.level.c_str(), &side == &sides[0] ? "(A)" : "(B)", side.move_ms.size(),
                percentile(side.move_ms, 0.5), percentile(side.move_ms, 0.99),
                percentile(side.move_ms, 1.0));
    std::printf(" (CPU: median %.3f ms, p99 %.3f ms, max %.3f ms)", percentile(side.cpu_ms, 0.5),
                percentile(side.cpu_ms, 0.99), percentile(side.cpu_ms, 1.0));
    if (side.peak_nodes > 0) {
      std::printf(", largest tree %zu nodes, %.2f MiB", side.peak_nodes,
                  static_cast<double>(side.peak_tree_bytes) / (1024.0 * 1024.0));
    }
    std::printf("\n");
  }
  // Moves per second of thread CPU time: one core's worth, whatever else the machine runs.
  double per_cpu_s[2] = {0, 0};
  for (size_t k = 0; k < 2; ++k) {
    const double cpu_s =
        std::accumulate(sides[k].cpu_ms.begin(), sides[k].cpu_ms.end(), 0.0) / 1000.0;
    per_cpu_s[k] = cpu_s > 0 ? static_cast<double>(sides[k].cpu_ms.size()) / cpu_s : 0;
    std::printf("%-9s %s: %.0f moves per CPU second (one core)\n", sides[k].level.c_str(),
                k == 0 ? "(A)" : "(B)", per_cpu_s[k]);
  }
  std::printf("process peak resident set: %.1f MiB (%d thread(s), each with its pair of bots)\n",
              usage_now.ru_maxrss / 1024.0, o.threads);
  std::printf(
      "RESULT ruleset=%s a=%s b=%s games=%d iterations=%d ms=%d a_win_pct=%.1f moves_per_s=%.0f "
      "a_moves_per_cpu_s=%.1f b_moves_per_cpu_s=%.1f\n",
      o.ruleset.c_str(), o.a.c_str(), o.b.c_str(), o.games, o.budget.iterations,
      o.budget.milliseconds, 100.0 * a_wins / o.games, static_cast<double>(moves) / seconds,
      per_cpu_s[0], per_cpu_s[1]);
  return 0;
}
