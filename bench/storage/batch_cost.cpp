// What one action costs the SQLite store in the pattern of the live server's group commit, with
// nothing else in the process: LIVE matches play at once, each batch (one transaction, one sync)
// holds one action of each of BATCH live matches drawn at random (by a fixed generator, as the
// server's batches hold whichever matches acted during the last sync), a match ends after LENGTH
// actions and a new one takes its place in the same batch. No threads, no clock in the work, so the
// figures repeat: run it under callgrind for instructions per action, under `strace -c` for
// system calls; it prints the bytes handed to write calls per action (/proc/self/io wchar: the
// WAL frames and the checkpoints' copies) and the wall-clock time per action.
//
// usage: bench_batch_cost [--live 100] [--batch 40] [--length 60] [--actions 40000]
//                         [--dir PATH] [--sync full|normal] [--page-size N]
// --page-size creates the file with pages of N bytes (SQLite's default is 4096) before the store
// opens it, to compare page sizes (docs/performance.md).
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "storage/sqlite/sqlite_match_store.hpp"

namespace {

using namespace duelhall;

int64_t written_bytes() {
  std::ifstream io("/proc/self/io");
  std::string key;
  int64_t value = 0;
  while (io >> key >> value) {
    if (key == "wchar:") return value;
  }
  return 0;
}

storage::NewMatch new_match(int n) {
  storage::NewMatch match;
  match.config.ruleset = "bench";
  match.names = {"ann-" + std::to_string(n), "ben-" + std::to_string(n)};
  match.engine_version = "bench";
  match.created_ms = 1'700'000'000'000 + n;
  return match;
}

struct Live {
  storage::MatchId id = 0;
  uint32_t next = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int live_count = 100, batch_size = 40, length = 60;
  long long total = 40'000;
  int page_size_asked = 0;
  std::string dir = "/tmp", sync = "full";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const char* value = argv[i + 1];
    if (arg == "--live") {
      live_count = std::atoi(value);
    } else if (arg == "--batch") {
      batch_size = std::atoi(value);
    } else if (arg == "--length") {
      length = std::atoi(value);
    } else if (arg == "--actions") {
      total = std::atoll(value);
    } else if (arg == "--dir") {
      dir = value;
    } else if (arg == "--sync") {
      sync = value;
    } else if (arg == "--page-size") {
      page_size_asked = std::atoi(value);
    } else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  if (live_count < 1 || batch_size < 1 || batch_size > live_count || length < 1 || total < 1) {
    std::fprintf(stderr, "need 1 <= batch <= live, length >= 1, actions >= 1\n");
    return 2;
  }
  const std::string path = dir + "/batch_cost_" + std::to_string(getpid()) + ".db";
  long long actions = 0, batches = 0;
  int64_t bytes = 0;
  double seconds = 0;
  std::string page_size;
  if (page_size_asked != 0) {
    // The page size is fixed by the first write, and WAL mode keeps it from changing later.
    storage::Database db(path, true);
    db.exec("PRAGMA page_size = " + std::to_string(page_size_asked));
    db.query_text("PRAGMA journal_mode = WAL");
  }
  {
    storage::StoreOptions options;
    options.sync = sync == "normal" ? storage::StoreOptions::Sync::kNormal
                                    : storage::StoreOptions::Sync::kFull;
    storage::SqliteMatchStore store(path, options);
    int created = 0;
    std::vector<Live> live(static_cast<size_t>(live_count));
    {
      std::vector<storage::MatchWrite> writes;
      for (int i = 0; i < live_count; ++i) writes.emplace_back(new_match(created++));
      std::vector<storage::MatchId> ids;
      store.write_batch(writes, &ids);
      for (size_t i = 0; i < live.size(); ++i) live[i].id = ids[i];
    }
    const int64_t bytes_before = written_bytes();
    const auto started = std::chrono::steady_clock::now();
    std::vector<storage::MatchWrite> writes;
    std::vector<size_t> replaced;
    std::vector<storage::MatchId> ids;
    std::vector<size_t> order(live.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    uint64_t random = 0x9E3779B97F4A7C15;
    while (actions < total) {
      writes.clear();
      replaced.clear();
      for (size_t b = 0; b < static_cast<size_t>(batch_size); ++b) {
        // A partial Fisher-Yates shuffle: the batch's matches are distinct.
        random = random * 6364136223846793005 + 1442695040888963407;
        std::swap(order[b], order[b + (random >> 33) % (order.size() - b)]);
        const size_t cursor = order[b];
        Live& match = live[cursor];
        storage::LoggedAction action;
        action.match = match.id;
        action.index = match.next;
        action.seat = static_cast<engine::Seat>(match.next % 2);
        action.action = engine::Action::make(1, static_cast<uint8_t>(match.next));
        action.at_ms = 1'700'000'000'000 + actions;
        writes.emplace_back(action);
        ++actions;
        if (++match.next < static_cast<uint32_t>(length)) continue;
        storage::MatchEnding ending;
        ending.match = match.id;
        ending.ended_ms = 1'700'000'000'000 + actions;
        writes.emplace_back(ending);
        writes.emplace_back(new_match(created++));
        replaced.push_back(cursor);
      }
      ids.clear();
      store.write_batch(writes, &ids);
      for (size_t i = 0; i < replaced.size(); ++i) live[replaced[i]] = Live{ids[i], 0};
      ++batches;
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    bytes = written_bytes() - bytes_before;
    storage::Database db(path, false);
    page_size = db.query_text("PRAGMA page_size");
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  std::printf(
      "page size %s, %d live, batches of %d, %d actions a match: %lld actions in %lld batches; "
      "per action %.0f bytes written, %.1f us\n",
      page_size.c_str(), live_count, batch_size, length, actions, batches,
      static_cast<double>(bytes) / static_cast<double>(actions),
      seconds * 1e6 / static_cast<double>(actions));
  return 0;
}
