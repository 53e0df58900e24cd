// A store outage pauses a match, never ends it (match_storage.cpp): on a SQLite store made to fail
// as a full disk would, the action is refused with STORAGE_UNAVAILABLE and a retry hint, nothing
// changes, everyone is told the match waits for its store, and play resumes by itself once the
// store takes writes again. Every action acknowledged OK is in the store, and the match ends
// finished, not aborted.
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <future>

#include "match/durable_log.hpp"
#include "storage/group_commit.hpp"
#include "storage/sqlite/sqlite.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support/in_process.hpp"
#include "support/open_match.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

// The SQLite store, failing every write (and check) as unavailable while `down`: the seam for a
// full disk or an I/O error, which the test cannot cause on the machine's own disk.
class FlakyStore final : public storage::MatchStore {
 public:
  explicit FlakyStore(const std::string& path) : inner_(path) {}
  std::atomic<bool> down{false};

  void write_batch(std::span<const storage::MatchWrite> writes,
                   std::vector<storage::MatchId>* created) override {
    fail_if_down();
    inner_.write_batch(writes, created);
  }
  void check() override {
    fail_if_down();
    inner_.check();
  }
  void claim_match(storage::MatchId match, int64_t epoch, std::string_view node) override {
    fail_if_down();
    inner_.claim_match(match, epoch, node);
  }
  std::optional<storage::MatchOwner> match_owner(storage::MatchId match) override {
    return inner_.match_owner(match);
  }
  void set_token(storage::MatchId match, engine::Seat seat, std::string_view token) override {
    inner_.set_token(match, seat, token);
  }
  std::optional<storage::TokenSeat> find_token(std::string_view token) override {
    return inner_.find_token(token);
  }
  storage::MatchId last_match_id() override { return inner_.last_match_id(); }
  void reserve_match_ids(storage::MatchId up_to) override { inner_.reserve_match_ids(up_to); }
  std::vector<storage::StoredMatch> unfinished_matches() override {
    return inner_.unfinished_matches();
  }
  std::vector<storage::StoredMatch> recently_ended_matches(int64_t since_ms) override {
    return inner_.recently_ended_matches(since_ms);
  }
  int64_t forget_ended_tokens(int64_t before_ms) override {
    return inner_.forget_ended_tokens(before_ms);
  }
  std::optional<storage::StoredMatch> load_match(storage::MatchId match) override {
    return inner_.load_match(match);
  }
  std::vector<storage::MatchSummary> list_ended(const storage::ReplayQuery& query) override {
    return inner_.list_ended(query);
  }
  storage::MatchId import_record(const fairness::MatchRecord& record, int64_t now_ms,
                                 storage::MatchId id) override {
    return inner_.import_record(record, now_ms, id);
  }
  storage::PruneReport prune(const storage::RetentionPolicy& policy, int64_t now_ms) override {
    return inner_.prune(policy, now_ms);
  }

 private:
  void fail_if_down() const {
    if (down) throw storage::StoreUnavailableError("database or disk is full (test seam)");
  }
  storage::SqliteMatchStore inner_;
};

struct OnFlakyStore {
  std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                 ("duelhall-storage-wait-" + std::to_string(::getpid()));
  std::unique_ptr<FlakyStore> store;
  std::unique_ptr<storage::GroupCommitLog> writer;
  std::unique_ptr<InProcessServer> server;

  OnFlakyStore() {
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    store = std::make_unique<FlakyStore>((folder / "m.db").string());
    writer = std::make_unique<storage::GroupCommitLog>(*store);
    // No executor: the writer's reports go to the matches' strands from its own thread.
    server = std::make_unique<InProcessServer>(
        server::Config{}, std::make_shared<server::DurableLogFactory>(*writer));
  }
  ~OnFlakyStore() {
    server.reset();
    writer.reset();
    store.reset();
    std::filesystem::remove_all(folder);
  }
};

const ServerMessage* storage_wait(const InProcessClient& c, bool waiting) {
  for (const auto& m : c.inbox) {
    if (m.has_storage_wait() && m.storage_wait().waiting() == waiting) return &m;
  }
  return nullptr;
}

// The seat with a decision sends its first legal action; returns the reply.
ServerMessage act(InProcessClient& ann, InProcessClient& ben, uint64_t id) {
  InProcessClient& actor = ann.tracker.find(id)->legal.empty() ? ben : ann;
  ClientMessage m;
  m.mutable_action()->set_match_id(id);
  m.mutable_action()->set_code(actor.tracker.find(id)->legal.front().code());
  m.mutable_action()->set_seq(actor.tracker.find(id)->seq);
  return actor.request(m);
}

// Plays on from `acknowledged` actions to the match's end, each action acknowledged OK; returns
// the count of acknowledged actions.
size_t play_to_end(InProcessClient& ann, InProcessClient& ben, uint64_t id, size_t acknowledged) {
  while (!ann.tracker.find(id)->ended) {
    const ServerMessage reply = act(ann, ben, id);
    REQUIRE(reply.result() == OK);
    const uint64_t seq = ++acknowledged;
    REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->seq >= seq; }));
    REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq >= seq; }));
  }
  return acknowledged;
}

// The writer's next check of the store (what the server's store watch runs every second).
bool probe(storage::GroupCommitLog& writer) {
  std::promise<bool> done;
  writer.probe([&](const storage::WriteResult& result) { done.set_value(result.ok); });
  return done.get_future().get();
}

}  // namespace

TEST_CASE("storage wait: a store that cannot write pauses the match, which resumes by itself") {
  OnFlakyStore setup;
  InProcessClient ann(*setup.server);
  InProcessClient ben(*setup.server);
  ann.hello("Ann");
  ben.hello("Ben");
  const uint64_t id = testing::open_two_seat_match(ann, ben, testing::kTestRuleset);
  size_t acknowledged = 0;
  REQUIRE(act(ann, ben, id).result() == OK);
  ++acknowledged;
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->seq == 1; }));
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq == 1; }));
  const std::string ann_view = ann.tracker.find(id)->view;

  setup.store->down = true;
  const ServerMessage refused = act(ann, ben, id);
  CHECK(refused.result() == STORAGE_UNAVAILABLE);
  CHECK(refused.retry_after_ms() > 0);
  for (InProcessClient* c : {&ann, &ben}) {
    REQUIRE(c->wait_until([&] { return storage_wait(*c, true) != nullptr; }));
    CHECK(storage_wait(*c, true)->storage_wait().match_id() == id);
    // Nothing changed: the step the store did not take is not shown, and the match plays on.
    const auto* tracked = c->tracker.find(id);
    CHECK(tracked->seq == 1);
    CHECK_FALSE(tracked->broken);
    CHECK_FALSE(tracked->ended);
  }
  CHECK(ann.tracker.find(id)->view == ann_view);
  // While it waits, an action is refused at once, with the same hint.
  const ServerMessage again = act(ann, ben, id);
  CHECK(again.result() == STORAGE_UNAVAILABLE);
  CHECK(again.retry_after_ms() > 0);

  setup.store->down = false;
  for (InProcessClient* c : {&ann, &ben}) {
    REQUIRE(c->wait_until([&] { return storage_wait(*c, false) != nullptr; },
                          std::chrono::milliseconds(5000)));
  }
  // Play resumes from the last stored step, to the end.
  acknowledged = play_to_end(ann, ben, id, acknowledged);
  CHECK(ann.tracker.find(id)->status == FINISHED);
  // Every acknowledged action is stored, the match's end too, and nothing else.
  setup.writer.reset();  // flushes what is queued
  const auto stored = setup.store->load_match(id);
  REQUIRE(stored);
  CHECK(stored->steps.size() == acknowledged);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
}

TEST_CASE("storage wait: an end the store could not take is told only once it is stored") {
  OnFlakyStore setup;
  InProcessClient ann(*setup.server);
  InProcessClient ben(*setup.server);
  ann.hello("Ann");
  ben.hello("Ben");
  const uint64_t id = testing::open_two_seat_match(ann, ben, testing::kTestRuleset);
  REQUIRE(act(ann, ben, id).result() == OK);
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq == 1; }));

  setup.store->down = true;
  ClientMessage resign;
  resign.mutable_resign()->set_match_id(id);
  const uint64_t request = ann.send(resign);
  REQUIRE(ben.wait_until([&] { return storage_wait(ben, true) != nullptr; }));
  // Not told while the end is not stored: neither the resignation's OK nor the end.
  for (int i = 0; i < 20; ++i) setup.server->pump();
  ann.drain();
  ben.drain();
  for (const auto& m : ann.inbox) CHECK(m.request_id() != request);
  CHECK_FALSE(ben.tracker.find(id)->ended);

  setup.store->down = false;
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->ended; }));
  REQUIRE(ann.wait_until([&] {
    for (const auto& m : ann.inbox) {
      if (m.request_id() == request) return m.result() == OK;
    }
    return false;
  }));
  setup.writer.reset();
  const auto stored = setup.store->load_match(id);
  REQUIRE(stored);
  CHECK(stored->steps.size() == 1);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
}

TEST_CASE("storage wait: no match is created while the store is known not to take writes") {
  OnFlakyStore setup;
  setup.server->hub->set_store_available([&] { return setup.writer->store_available(); });
  InProcessClient ann(*setup.server);
  ann.hello("Ann");
  setup.store->down = true;
  REQUIRE_FALSE(probe(*setup.writer));
  ClientMessage create;
  create.mutable_create_match()->mutable_settings()->set_ruleset(testing::kTestRuleset);
  create.mutable_create_match()->mutable_settings()->set_seats(2);
  create.mutable_create_match()->set_join(true);
  const ServerMessage refused = ann.request(create);
  CHECK(refused.result() == STORAGE_UNAVAILABLE);
  CHECK(refused.retry_after_ms() > 0);
  CHECK(setup.server->hub->match_count() == 0);

  setup.store->down = false;
  REQUIRE(probe(*setup.writer));
  CHECK(ann.request(create).result() == OK);
}

TEST_CASE(
    "storage wait: a match whose creation the store could not take is stored before its first "
    "action is acknowledged, and plays to its end") {
  OnFlakyStore setup;
  InProcessClient ann(*setup.server);
  InProcessClient ben(*setup.server);
  ann.hello("Ann");
  ben.hello("Ben");
  // The store fails before the server has seen it fail: the creation is taken, its write fails.
  setup.store->down = true;
  const uint64_t id = testing::open_two_seat_match(ann, ben, testing::kTestRuleset);
  REQUIRE(ann.wait_until([&] { return setup.writer->stats().failed >= 1; }));
  setup.store->down = false;
  // The store is back before the first action: the creation is written again ahead of it.
  const size_t acknowledged = play_to_end(ann, ben, id, 0);
  CHECK(ann.tracker.find(id)->status == FINISHED);
  setup.writer.reset();
  const auto stored = setup.store->load_match(id);
  REQUIRE(stored);
  CHECK(stored->steps.size() == acknowledged);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
}

TEST_CASE(
    "storage wait: a match whose creation the store could not take waits for the store at its "
    "first action, then plays to its end") {
  OnFlakyStore setup;
  InProcessClient ann(*setup.server);
  InProcessClient ben(*setup.server);
  ann.hello("Ann");
  ben.hello("Ben");
  setup.store->down = true;
  const uint64_t id = testing::open_two_seat_match(ann, ben, testing::kTestRuleset);
  const ServerMessage refused = act(ann, ben, id);
  CHECK(refused.result() == STORAGE_UNAVAILABLE);
  CHECK(refused.retry_after_ms() > 0);
  REQUIRE(ann.wait_until([&] { return storage_wait(ann, true) != nullptr; }));
  setup.store->down = false;
  REQUIRE(ann.wait_until([&] { return storage_wait(ann, false) != nullptr; },
                         std::chrono::milliseconds(5000)));
  const size_t acknowledged = play_to_end(ann, ben, id, 0);
  CHECK(ann.tracker.find(id)->status == FINISHED);
  setup.writer.reset();
  const auto stored = setup.store->load_match(id);
  REQUIRE(stored);
  CHECK(stored->steps.size() == acknowledged);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
}

TEST_CASE("storage wait: SQLite's full database is a store that cannot write now, not a refusal") {
  // A database at its page limit fails as a full disk does (SQLITE_FULL), without filling one.
  const auto path = std::filesystem::temp_directory_path() /
                    ("duelhall-storage-full-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  {
    storage::Database db(path.string(), true);
    db.exec("CREATE TABLE filler (b BLOB)");
    db.exec("PRAGMA max_page_count = " + std::to_string(db.query_int("PRAGMA page_count") + 2));
    bool unavailable = false;
    try {
      for (int i = 0; i < 64; ++i) db.exec("INSERT INTO filler VALUES (zeroblob(4096))");
    } catch (const storage::StoreUnavailableError&) {
      unavailable = true;
    }
    CHECK(unavailable);
    // Room again: the same write succeeds.
    db.exec("PRAGMA max_page_count = 1000000");
    CHECK_NOTHROW(db.exec("INSERT INTO filler VALUES (zeroblob(4096))"));
  }
  std::filesystem::remove(path);
}
