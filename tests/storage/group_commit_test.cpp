#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "storage/group_commit.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using storage::GroupCommitLog;
using storage::LoggedAction;
using storage::SqliteMatchStore;

namespace {

const engine::Action kRoll = engine::Action::make(1);

// Holds the writer inside the first completion callback until released, so that everything
// appended meanwhile is queued and must go out as one batch: makes grouping deterministic.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool entered = false;
  bool open = false;
  // Called by the writer, in the callback.
  void wait() {
    std::unique_lock lock(mutex);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [this] { return open; });
  }
  // Called by the test: returns once the writer is held.
  void wait_entered() {
    std::unique_lock lock(mutex);
    cv.wait(lock, [this] { return entered; });
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    cv.notify_all();
  }
};

std::vector<storage::MatchId> create_matches(storage::MatchStore& store, int count) {
  const auto registry = testing::toy_registry();
  std::vector<storage::MatchId> ids;
  for (int n = 0; n < count; ++n) {
    auto state = testing::play_toy_match(registry, static_cast<uint64_t>(n), 0);
    ids.push_back(store.create_match(testing::new_match_for(*state, static_cast<uint64_t>(n))));
  }
  return ids;
}

}  // namespace

TEST_CASE("appends queued while a commit runs go out together in the next transaction") {
  testing::ScratchDir dir;
  SqliteMatchStore store(dir.file("d.db"));
  auto ids = create_matches(store, 10);
  Gate gate;
  std::vector<int> completed;
  int failed = 0;  // Catch's assertions are not for the writer thread: counted, checked after
  std::mutex completed_mutex;
  {
    GroupCommitLog log(store);
    log.append({ids[0], 0, 0, kRoll, 1}, [&](const storage::WriteResult& r) {
      gate.wait();
      std::lock_guard lock(completed_mutex);
      if (!r.ok) ++failed;
      completed.push_back(-1);
    });
    gate.wait_entered();
    int order = 0;
    for (uint32_t index = 0; index < 100; ++index) {
      for (size_t m = 1; m < ids.size(); ++m) {
        log.append({ids[m], index, 0, kRoll, 2},
                   [&, mine = order++](const storage::WriteResult& r) {
                     std::lock_guard lock(completed_mutex);
                     if (!r.ok) ++failed;
                     completed.push_back(mine);
                   });
      }
    }
    gate.release();
  }  // the destructor commits what is queued before it returns
  REQUIRE(completed.size() == 901);
  CHECK(failed == 0);
  for (size_t i = 0; i < completed.size(); ++i) CHECK(completed[i] == static_cast<int>(i) - 1);
  for (size_t m = 1; m < ids.size(); ++m) CHECK(store.load_match(ids[m])->steps.size() == 100);
}

TEST_CASE("group commit counts batches: 900 queued appends take one transaction") {
  testing::ScratchDir dir;
  SqliteMatchStore store(dir.file("d.db"));
  auto ids = create_matches(store, 10);
  Gate gate;
  GroupCommitLog log(store);
  log.append({ids[0], 0, 0, kRoll, 1}, [&](const storage::WriteResult&) { gate.wait(); });
  gate.wait_entered();
  std::vector<std::future<storage::WriteResult>> futures;
  for (uint32_t index = 0; index < 100; ++index) {
    for (size_t m = 1; m < ids.size(); ++m)
      futures.push_back(log.append({ids[m], index, 0, kRoll, 2}));
  }
  gate.release();
  for (auto& f : futures) CHECK(f.get().ok);
  const auto stats = log.stats();
  CHECK(stats.appended == 901);
  CHECK(stats.batches == 2);
  CHECK(stats.largest_batch == 900);
}

TEST_CASE("a queue longer than max_batch goes out in batches of max_batch, in order") {
  testing::ScratchDir dir;
  SqliteMatchStore store(dir.file("d.db"));
  auto ids = create_matches(store, 10);
  Gate gate;
  std::vector<int> completed;  // only the writer thread touches it until the log is gone
  int failed = 0;              // likewise
  {
    GroupCommitLog log(store, GroupCommitLog::Options{64});
    log.append({ids[0], 0, 0, kRoll, 1}, [&](const storage::WriteResult&) { gate.wait(); });
    gate.wait_entered();
    int order = 0;
    for (uint32_t index = 0; index < 100; ++index) {
      for (size_t m = 1; m < ids.size(); ++m) {
        log.append({ids[m], index, 0, kRoll, 2},
                   [&, mine = order++](const storage::WriteResult& r) {
                     // Catch's assertions are not for other threads: count, check after.
                     if (!r.ok) ++failed;
                     completed.push_back(mine);
                   });
      }
    }
    gate.release();
    while (log.stats().appended < 901) std::this_thread::yield();
    const auto stats = log.stats();
    CHECK(stats.batches == 1 + (900 + 63) / 64);
    CHECK(stats.largest_batch == 64);
  }
  REQUIRE(completed.size() == 900);
  CHECK(failed == 0);
  for (size_t i = 0; i < completed.size(); ++i) CHECK(completed[i] == static_cast<int>(i));
  for (size_t m = 1; m < ids.size(); ++m) CHECK(store.load_match(ids[m])->steps.size() == 100);
}

TEST_CASE("a bad append in a batch fails alone, the others in its batch are written") {
  testing::ScratchDir dir;
  SqliteMatchStore store(dir.file("d.db"));
  auto ids = create_matches(store, 3);
  Gate gate;
  GroupCommitLog log(store);
  log.append({ids[0], 0, 0, kRoll, 1}, [&](const storage::WriteResult&) { gate.wait(); });
  gate.wait_entered();
  auto good1 = log.append({ids[1], 0, 0, kRoll, 2});
  auto duplicate = log.append({ids[1], 0, 0, kRoll, 2});
  auto skipped = log.append({ids[2], 5, 0, kRoll, 2});
  auto good2 = log.append({ids[2], 0, 1, kRoll, 2});
  auto good3 = log.append({ids[1], 1, 1, kRoll, 2});
  gate.release();
  CHECK(good1.get().ok);
  auto dup = duplicate.get();
  CHECK_FALSE(dup.ok);
  CHECK_THAT(dup.error, Catch::Contains("expects step 1, not 0"));
  auto gap = skipped.get();
  CHECK_FALSE(gap.ok);
  CHECK_THAT(gap.error, Catch::Contains("expects step 0, not 5"));
  CHECK(good2.get().ok);
  CHECK(good3.get().ok);
  CHECK(store.load_match(ids[1])->steps.size() == 2);
  CHECK(store.load_match(ids[2])->steps.size() == 1);
  CHECK(log.stats().failed == 2);
}

TEST_CASE("many threads appending to many matches lose nothing") {
  testing::ScratchDir dir;
  SqliteMatchStore store(dir.file("d.db"));
  constexpr int kThreads = 8;
  constexpr uint32_t kSteps = 150;
  auto ids = create_matches(store, kThreads);
  GroupCommitLog log(store);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kSteps; ++i) {
        // Like a match: the next action only once the previous one is durable.
        if (!log.append({ids[static_cast<size_t>(t)], i, 0, kRoll, 3}).get().ok) return;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (auto id : ids) CHECK(store.load_match(id)->steps.size() == kSteps);
  const auto stats = log.stats();
  CHECK(stats.appended == kThreads * kSteps);
  CHECK(stats.failed == 0);
}

TEST_CASE("matches are created and ended through the queue, in order with their appends") {
  testing::ScratchDir dir;
  SqliteMatchStore store(dir.file("d.db"));
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 40);
  REQUIRE(state->terminal());
  GroupCommitLog log(store);
  std::promise<storage::WriteResult> created;
  log.create_match(testing::new_match_for(*state, 40),
                   [&](const storage::WriteResult& r) { created.set_value(r); });
  const auto result = created.get_future().get();
  REQUIRE(result.ok);
  const storage::MatchId id = result.created;
  CHECK(store.load_match(id)->summary.status == storage::MatchStatus::kLive);
  std::vector<std::future<storage::WriteResult>> appended;
  for (size_t i = 0; i < state->history().size(); ++i) {
    appended.push_back(log.append(
        {id, static_cast<uint32_t>(i), state->history()[i].seat, state->history()[i].action, 5}));
  }
  std::promise<storage::WriteResult> ended;
  log.end_match(
      {id, storage::MatchStatus::kFinished, fairness::record_outcome(state->outcome()), 77},
      [&](const storage::WriteResult& r) { ended.set_value(r); });
  auto late = log.append({id, static_cast<uint32_t>(state->history().size()), 0, kRoll, 6});
  for (auto& f : appended) CHECK(f.get().ok);
  CHECK(ended.get_future().get().ok);
  auto refused = late.get();
  CHECK_FALSE(refused.ok);
  CHECK_THAT(refused.error, Catch::Contains("ended match"));
  auto stored = store.load_match(id);
  CHECK(stored->steps == state->history());
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
  CHECK(stored->summary.ended_ms == 77);
}
