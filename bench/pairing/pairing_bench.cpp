// The pairing rule under load (docs/pairing.md): 10,000 seekers with spread ratings (normal,
// mean 1500, sd 350, deviations 45-350, one in twenty ignoring a random other) seek one pool, and
// a wave runs every second. Prints, per scenario, each wave's CPU time (median and max, and the
// wave over the fullest pool), the wait of the paired (median, p99), the rating gap of the pairs
// (mean, p95; a table's spread for tables), and the seekers paired twice and lost (both must be
// 0). Scenarios: all 10,000 at once; arriving over 60 s; four-seat tables with bot fill after
// 30 s, arriving over 60 s.
//   bench_pairing [seekers]
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

#include "pairing/pairing_pool.hpp"

using namespace duelhall::pairing;

namespace {

struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double normal() {  // Box-Muller
    const double u = std::max(uniform(), 1e-12);
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * uniform());
  }
};

class Ignores : public IgnoreQuery {
 public:
  void add(int64_t who, int64_t other) { pairs_.insert(key(who, other)); }
  bool ignores(SeekerId who, SeekerId other) const override {
    return pairs_.contains(key(who.id, other.id));
  }

 private:
  static uint64_t key(int64_t a, int64_t b) {
    return (static_cast<uint64_t>(a) << 32) | static_cast<uint64_t>(b);
  }
  std::unordered_set<uint64_t> pairs_;
};

double thread_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t at = std::min(values.size() - 1, static_cast<size_t>(q * values.size()));
  return values[at];
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (const double value : values) sum += value;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

Instant at(double seconds) {
  return Instant{} + std::chrono::duration_cast<Instant::duration>(
                         std::chrono::duration<double>(seconds));
}

struct Scenario {
  const char* name;
  double arrival_seconds;  // arrivals spread evenly at random over this; 0: all at t = 0
  uint32_t seats;
  int bot_fill_after;
};

void run(const Scenario& scenario, int64_t seekers) {
  Random random{0x5eed};
  Ignores ignores;
  PairingOptions options;  // the defaults, as the server would run them
  options.max_seats = scenario.seats;
  options.bot_fill_after = std::chrono::seconds(scenario.bot_fill_after);
  PairingPool pool(PoolKey{"jedi_duel", true, "5+3"}, options, &ignores);

  struct Arrival {
    double time;
    Seek seek;
  };
  std::vector<Arrival> arrivals;
  for (int64_t id = 0; id < seekers; ++id) {
    const double rating = std::clamp(1500 + 350 * random.normal(), 600.0, 2900.0);
    const double deviation = 45 + 305 * random.uniform();
    arrivals.push_back({scenario.arrival_seconds * random.uniform(),
                        Seek{SeekerId{false, id}, rating, deviation, scenario.seats, {}}});
    if (random.uniform() < 0.05) {
      ignores.add(id, static_cast<int64_t>(random.next() % static_cast<uint64_t>(seekers)));
    }
  }
  std::sort(arrivals.begin(), arrivals.end(),
            [](const Arrival& a, const Arrival& b) { return a.time < b.time; });

  std::vector<double> wave_ms, waits, gaps;
  std::vector<int> times_paired(static_cast<size_t>(seekers), 0);
  double fullest_wave_ms = 0;
  size_t fullest = 0, bot_seats = 0, refused = 0;
  size_t next = 0;
  int quiet_waves = 0;
  for (int second = 0; quiet_waves < 120; ++second) {
    while (next < arrivals.size() && arrivals[next].time <= second) {
      if (pool.seek(arrivals[next].seek, at(arrivals[next].time)) != PairingOutcome::kOk) {
        ++refused;
      }
      ++next;
    }
    const size_t waiting = pool.size();
    const double start = thread_cpu_ms();
    const std::vector<Table> tables = pool.wave(at(second));
    const double cost = thread_cpu_ms() - start;
    wave_ms.push_back(cost);
    if (waiting > fullest) fullest = waiting, fullest_wave_ms = cost;
    for (const Table& table : tables) {
      bot_seats += table.bot_seats;
      gaps.push_back(table.seekers.back().rating - table.seekers.front().rating);
      for (const Seeker& seeker : table.seekers) {
        ++times_paired[static_cast<size_t>(seeker.who.id)];
        waits.push_back(std::chrono::duration<double>(at(second) - seeker.since).count());
      }
    }
    // Once everyone has come: stop when the pool is empty or two minutes pass without a table.
    if (next == arrivals.size()) {
      if (pool.size() == 0) break;
      quiet_waves = tables.empty() ? quiet_waves + 1 : 0;
    }
  }
  size_t paired_twice = 0, lost = 0, paired = 0;
  for (int64_t id = 0; id < seekers; ++id) {
    const int count = times_paired[static_cast<size_t>(id)];
    paired_twice += count > 1 ? 1 : 0;
    paired += count > 0 ? 1 : 0;
    lost += (count == 0) != pool.seeking(SeekerId{false, id}) ? 1 : 0;
  }
  std::printf("== %s: %lld seekers, %u seats, %zu waves\n", scenario.name,
              static_cast<long long>(seekers), scenario.seats, wave_ms.size());
  std::printf("  wave CPU: median %.3f ms, max %.3f ms; over the fullest pool (%zu) %.3f ms\n",
              quantile(wave_ms, 0.5), quantile(wave_ms, 1.0), fullest, fullest_wave_ms);
  std::printf("  wait of the paired: median %.2f s, p99 %.2f s\n", quantile(waits, 0.5),
              quantile(waits, 0.99));
  std::printf("  rating gap%s: mean %.1f, p95 %.1f\n",
              scenario.seats == 2 ? " of the pairs" : " (spread) of the tables", mean(gaps),
              quantile(gaps, 0.95));
  std::printf("  paired %zu, still waiting %zu, bot seats %zu, refused %zu\n", paired,
              pool.size(), bot_seats, refused);
  std::printf("  paired twice %zu, lost %zu\n", paired_twice, lost);
  if (paired_twice != 0 || lost != 0) std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t seekers = argc > 1 ? std::atoll(argv[1]) : 10000;
  run({"all at once", 0, 2, 0}, seekers);
  run({"arriving over 60 s", 60, 2, 0}, seekers);
  run({"four-seat tables, bot fill after 30 s, arriving over 60 s", 60, 4, 30}, seekers);
  return 0;
}
