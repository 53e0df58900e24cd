// A writer process killed with SIGKILL loses no acknowledged append. The child plays many toy
// matches through GroupCommitLog and reports each acknowledgement on a pipe only from the
// completion callback, after the commit returned, as the server sends diffs; the parent kills it
// mid-stream and then requires every acknowledged step in the reopened store.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <sstream>

#include "core/version.hpp"
#include "storage/group_commit.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;

namespace {

// Runs in the child until killed: `matches` concurrent toy matches, each taking its next step only
// once the previous one is acknowledged, a new match replacing each that ends.
[[noreturn]] void play_until_killed(const std::string& path, int ack_fd, int matches) {
  const auto registry = testing::toy_registry();
  storage::SqliteMatchStore store(path);
  storage::GroupCommitLog log(store);
  struct Live {
    storage::MatchId id = 0;
    std::unique_ptr<engine::State> state;
  };
  std::vector<Live> live(static_cast<size_t>(matches));
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<size_t> ready;
  uint64_t next_seed = 1;
  engine::Rng chooser(engine::seed_from_number(99));
  for (size_t i = 0; i < live.size(); ++i) ready.push_back(i);
  while (true) {
    size_t slot = 0;
    {
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return !ready.empty(); });
      slot = ready.front();
      ready.pop_front();
    }
    Live& match = live[slot];
    if (!match.state || match.state->terminal()) {
      const uint64_t seed = next_seed++;
      match.state = registry.create("toy_race", 2, engine::seed_from_number(seed), {}).state;
      match.id = store.create_match(testing::new_match_for(*match.state, seed));
    }
    const engine::Seat seat = match.state->pending().first();
    auto legal = match.state->legal_actions(seat);
    const auto action = legal[chooser.below(static_cast<uint32_t>(legal.size()))];
    const auto index = static_cast<uint32_t>(match.state->history().size());
    match.state->apply(seat, action);
    log.append({match.id, index, seat, action, 0}, [&, slot, id = match.id,
                                                    index](const storage::WriteResult& result) {
      if (!result.ok) _exit(3);
      char line[64];
      int n = std::snprintf(line, sizeof line, "%lld %u\n", static_cast<long long>(id), index);
      if (write(ack_fd, line, static_cast<size_t>(n)) != n) _exit(4);
      {
        std::lock_guard lock(mutex);
        ready.push_back(slot);
      }
      cv.notify_one();
    });
  }
}

}  // namespace

TEST_CASE("a writer killed with SIGKILL mid-stream loses no acknowledged append") {
  testing::ScratchDir dir;
  const std::string path = dir.file("d.db");
  { storage::SqliteMatchStore create(path); }
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    try {
      play_until_killed(path, fds[1], 64);
    } catch (...) {
      _exit(5);
    }
  }
  close(fds[1]);
  // Read acknowledgements until enough have been seen, kill, then drain what was sent before.
  std::string acks;
  char buffer[4096];
  bool killed = false;
  while (true) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;
    acks.append(buffer, static_cast<size_t>(n));
    if (!killed && acks.size() > 20000 * 8) {
      REQUIRE(kill(child, SIGKILL) == 0);
      killed = true;
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(killed);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);

  // The highest acknowledged step of each match (a killed write may leave a partial last line).
  std::map<storage::MatchId, long> acked;
  std::istringstream lines(acks.substr(0, acks.rfind('\n') + 1));
  long long id = 0;
  long index = 0;
  long total = 0;
  while (lines >> id >> index) {
    auto& top = acked[id];
    top = std::max(top, index + 1);
    ++total;
  }
  INFO("acknowledged appends: " << total << " in " << acked.size() << " matches");
  REQUIRE(total >= 20000);

  storage::SqliteMatchStore store(path);
  const auto registry = testing::toy_registry();
  for (const auto& [match, steps] : acked) {
    auto stored = store.load_match(match);
    REQUIRE(stored);
    CHECK(static_cast<long>(stored->steps.size()) >= steps);
    // And what is on disk is a sound log: it replays.
    std::string error;
    CHECK(engine::replay(registry, stored->config, stored->steps, error) != nullptr);
  }
}
