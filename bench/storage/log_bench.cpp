// The cost of durability: many simulated matches played by worker threads (as the server's
// strands would), each match taking its next step only once its previous one is logged, with
//  - memory: the log is an in-memory vector (the server without storage), and
//  - group commit: the log is the SQLite MatchStore through GroupCommitLog, synchronous=FULL,
//    each action acknowledged only once on disk;
// alternating in the same run, several runs, medians reported. Each action does the engine work
// the server does for it: legal actions, apply with events, and one view per seat and spectator.
//
// usage: bench_storage [--matches N] [--actions N] [--runs N] [--workers N] [--ruleset NAME]
//                      [--sync full|normal] [--dir PATH] [--per-append]
// --per-append adds a third mode committing every action in its own transaction, for contrast.
#include <sys/resource.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/registry.hpp"
#include "core/version.hpp"
#include "log_sinks.hpp"
#include "storage/group_commit.hpp"
#include "toy_ruleset.hpp"

namespace {

using namespace duelhall;
using bench::MemorySink;
using bench::Sink;
using bench::StoreSink;
using Clock = std::chrono::steady_clock;

struct Options {
  int matches = 256;
  long actions = 200'000;
  int runs = 5;
  int workers = 2;
  std::string ruleset = testing::kToyRuleset;
  bool sync_full = true;
  bool per_append = false;
  std::string dir;
};

enum class Mode { kMemory, kGroupCommit, kPerAppend };

const char* name(Mode mode) {
  switch (mode) {
    case Mode::kMemory:
      return "memory";
    case Mode::kGroupCommit:
      return "group commit";
    case Mode::kPerAppend:
      return "per-append commit";
  }
  return "?";
}

struct Slot {
  std::unique_ptr<engine::State> state;
  storage::MatchId id = 0;
};

struct RunResult {
  double per_second = 0;         // actions per second of wall time
  double cpu_us_per_action = 0;  // process CPU time (all threads) per action
  storage::GroupCommitStats stats;
};

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Plays `actions` actions over `matches` concurrent matches.
RunResult run_once(const engine::Registry& registry, const Options& o, Sink& sink,
                   uint64_t first_seed) {
  const engine::RulesetInfo* info = registry.find(o.ruleset);
  std::vector<Slot> slots(static_cast<size_t>(o.matches));
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<size_t> ready;
  std::atomic<uint64_t> next_seed{first_seed};
  std::atomic<long> started{0};
  std::atomic<long> logged{0};
  bool done = false;
  for (size_t i = 0; i < slots.size(); ++i) ready.push_back(i);

  int idle_workers = 0;
  // Like an executor's post: a system call to wake a worker only when one is asleep.
  auto make_ready = [&](size_t slot) {
    bool wake = false;
    {
      std::lock_guard lock(mutex);
      ready.push_back(slot);
      wake = idle_workers > 0;
    }
    if (wake) cv.notify_one();
  };
  auto worker = [&](int index) {
    engine::Rng chooser(engine::seed_from_number(first_seed * 131 + static_cast<uint64_t>(index)));
    std::vector<engine::Action> legal;
    std::vector<engine::Event> events;
    std::string view;
    while (true) {
      size_t s = 0;
      {
        std::unique_lock lock(mutex);
        ++idle_workers;
        cv.wait(lock, [&] { return done || !ready.empty(); });
        --idle_workers;
        if (done) return;
        s = ready.front();
        ready.pop_front();
      }
      if (started.fetch_add(1) >= o.actions) {
        std::lock_guard lock(mutex);
        done = true;
        cv.notify_all();
        return;
      }
      Slot& slot = slots[s];
      if (!slot.state || slot.state->terminal()) {
        // The ended match is recorded and a new one takes its place, which plays once created.
        if (slot.state) sink.finish(slot.id, slot.state->outcome());
        const uint64_t seed = next_seed++;
        auto created =
            registry.create(o.ruleset, info->min_seats, engine::seed_from_number(seed), {});
        if (!created.state) {
          std::fprintf(stderr, "cannot create a %s match: %s\n", o.ruleset.c_str(),
                       created.error.c_str());
          std::exit(2);
        }
        slot.state = std::move(created.state);
        started.fetch_sub(1);
        sink.create(*slot.state, seed, [&, s](storage::MatchId id) {
          slots[s].id = id;
          make_ready(s);
        });
        continue;
      }
      engine::State& state = *slot.state;
      const engine::Seat seat = state.pending().first();
      state.legal_actions(seat, legal);
      const engine::Action action = legal[chooser.below(static_cast<uint32_t>(legal.size()))];
      const auto step = static_cast<uint32_t>(state.history().size());
      events.clear();
      state.apply(seat, action, &events);
      // The views the server would diff and send after the append.
      for (engine::Seat v = 0; v < state.num_seats(); ++v) {
        view.clear();
        state.write_view(engine::Viewer::of_seat(v), view);
      }
      view.clear();
      state.write_view(engine::Viewer::spectator(), view);
      sink.append({slot.id, step, seat, action, 0}, [&, s] {
        logged.fetch_add(1);
        make_ready(s);
      });
    }
  };
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  std::vector<std::thread> threads;
  for (int w = 0; w < o.workers; ++w) threads.emplace_back(worker, w);
  for (auto& t : threads) t.join();
  RunResult result;
  if (auto* store = dynamic_cast<StoreSink*>(&sink)) result.stats = store->drain();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto actions = static_cast<double>(logged.load());
  result.per_second = actions / seconds;
  result.cpu_us_per_action = (cpu_seconds() - cpu_start) * 1e6 / actions;
  return result;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--matches")
      o.matches = std::atoi(value), ++i;
    else if (arg == "--actions")
      o.actions = std::atol(value), ++i;
    else if (arg == "--runs")
      o.runs = std::atoi(value), ++i;
    else if (arg == "--workers")
      o.workers = std::atoi(value), ++i;
    else if (arg == "--ruleset")
      o.ruleset = value, ++i;
    else if (arg == "--sync")
      o.sync_full = std::string(value) != "normal", ++i;
    else if (arg == "--dir")
      o.dir = value, ++i;
    else if (arg == "--per-append")
      o.per_append = true;
    else {
      std::fprintf(stderr, "unknown argument %s (see the comment at the top of log_bench.cpp)\n",
                   arg.c_str());
      std::exit(2);
    }
  }
  if (o.matches < 1 || o.actions < 1 || o.runs < 1 || o.workers < 1) {
    std::fprintf(stderr, "counts must be positive\n");
    std::exit(2);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  engine::Registry registry = engine::builtin_registry();
  if (!registry.find(o.ruleset)) testing::register_toy_race(registry);
  if (!registry.find(o.ruleset)) {
    std::fprintf(stderr, "unknown ruleset %s\n", o.ruleset.c_str());
    return 2;
  }
  const std::filesystem::path dir = o.dir.empty()
                                        ? std::filesystem::temp_directory_path() /
                                              ("duelhall-bench-storage-" + std::to_string(getpid()))
                                        : std::filesystem::path(o.dir);
  std::filesystem::create_directories(dir);
  std::printf(
      "bench_storage: %s, %d concurrent matches, %d workers, %ld actions per run, %d runs, "
      "synchronous=%s, data in %s\n",
      o.ruleset.c_str(), o.matches, o.workers, o.actions, o.runs, o.sync_full ? "FULL" : "NORMAL",
      dir.c_str());
  std::vector<Mode> modes{Mode::kMemory, Mode::kGroupCommit};
  if (o.per_append) modes.push_back(Mode::kPerAppend);
  std::vector<std::vector<double>> rates(modes.size());
  std::vector<std::vector<double>> cpu(modes.size());
  for (int run = 0; run < o.runs; ++run) {
    std::printf("run %d:", run + 1);
    for (size_t m = 0; m < modes.size(); ++m) {
      const std::string path = (dir / ("bench-" + std::to_string(run) + ".db")).string();
      for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
      std::unique_ptr<Sink> sink;
      if (modes[m] == Mode::kMemory) {
        sink = std::make_unique<MemorySink>();
      } else {
        sink = std::make_unique<StoreSink>(path, o.sync_full, modes[m] == Mode::kGroupCommit);
      }
      Options run_options = o;
      // Committing each action alone is slow: a tenth of the actions measures it well enough.
      if (modes[m] == Mode::kPerAppend) run_options.actions = std::max(1L, o.actions / 10);
      const RunResult r =
          run_once(registry, run_options, *sink, static_cast<uint64_t>(run) * 1'000'000 + 1);
      rates[m].push_back(r.per_second);
      cpu[m].push_back(r.cpu_us_per_action);
      std::printf("  %s %.0f actions/s %.2f us CPU/action", name(modes[m]), r.per_second,
                  r.cpu_us_per_action);
      if (r.stats.batches > 0) {
        const auto writes = static_cast<double>(r.stats.appended);
        std::printf(" (%.0f writes per transaction; the writer thread %.2f us CPU/write)",
                    writes / static_cast<double>(r.stats.batches),
                    r.stats.writer_cpu_seconds * 1e6 / writes);
      }
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  std::printf("median:");
  for (size_t m = 0; m < modes.size(); ++m) {
    std::printf("  %s %.0f actions/s %.2f us CPU/action", name(modes[m]), median(rates[m]),
                median(cpu[m]));
  }
  const double memory = median(rates[0]);
  const double durable = median(rates[1]);
  std::printf(
      "\ndurability (group commit, synchronous=%s): %.1f%% fewer actions per second than "
      "in memory; %.2f us more CPU per action\n",
      o.sync_full ? "FULL" : "NORMAL", 100.0 * (1.0 - durable / memory),
      median(cpu[1]) - median(cpu[0]));
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) > 0) std::printf("machine load average (1 min): %.2f\n", load[0]);
  if (o.dir.empty()) std::filesystem::remove_all(dir);
  return 0;
}
