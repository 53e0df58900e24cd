// A report of the store's writer that the I/O loop never ran (it stopped between a commit and
// the relay's drain, or the writer completed its queue at shutdown) keeps nothing alive once the
// server is gone: the relay, its queued reports and their matches are not held in a cycle
// (server/match/durable_log.hpp). LeakSanitizer found a Match kept so at exit.
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "match/durable_log.hpp"
#include "storage/group_commit.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support/in_process.hpp"
#include "support/open_match.hpp"

namespace {

// A match played on the SQLite log whose writer reports through a relay on `relay_io`, a loop
// that never runs: as when the server's I/O loop stops between a commit and its drain.
struct StoppedRelay {
  std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("duelhall-relay-" + std::to_string(::getpid()));
  boost::asio::io_context relay_io;  // first in, last out, as main()'s io_context
  std::unique_ptr<duelhall::storage::SqliteMatchStore> store;
  std::unique_ptr<duelhall::storage::GroupCommitLog> writer;
  std::shared_ptr<duelhall::server::DurableLogFactory> logs;
  std::unique_ptr<duelhall::testing::InProcessServer> server;

  StoppedRelay() {
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    store = std::make_unique<duelhall::storage::SqliteMatchStore>((folder / "m.db").string());
    writer = std::make_unique<duelhall::storage::GroupCommitLog>(*store);
    logs = std::make_shared<duelhall::server::DurableLogFactory>(*writer, relay_io.get_executor());
    server = std::make_unique<duelhall::testing::InProcessServer>(duelhall::server::Config{}, logs);
  }
  // Everything goes in main()'s order, the I/O loops last; the relay's drain is never run.
  void shut_down() {
    server->hub.reset();
    logs.reset();
    writer.reset();
    store.reset();
    server.reset();
  }
  ~StoppedRelay() { std::filesystem::remove_all(folder); }
};

// The first seat with a decision submits its first legal action.
void act_once(duelhall::testing::InProcessClient& ann, duelhall::testing::InProcessClient& ben,
              uint64_t id) {
  auto& actor = ann.tracker.find(id)->legal.empty() ? ben : ann;
  duelhall::ClientMessage m;
  m.mutable_action()->set_match_id(id);
  m.mutable_action()->set_code(actor.tracker.find(id)->legal.front().code());
  m.mutable_action()->set_seq(actor.tracker.find(id)->seq);
  actor.send(m);
}

}  // namespace

TEST_CASE("durable relay: a report the stopped I/O loop never ran does not keep its match alive") {
  std::weak_ptr<duelhall::server::Match> match;
  {
    StoppedRelay setup;
    {
      duelhall::testing::InProcessClient ann(*setup.server);
      duelhall::testing::InProcessClient ben(*setup.server);
      ann.hello("Ann");
      ben.hello("Ben");
      const uint64_t id =
          duelhall::testing::open_two_seat_match(ann, ben, duelhall::testing::kTestRuleset);
      match = setup.server->hub->find_match(id);
      REQUIRE_FALSE(match.expired());
      act_once(ann, ben, id);
      // Stored, and its report queued on the relay, whose drain is posted but never runs.
      REQUIRE(ann.wait_until([&] { return setup.writer->stats().appended >= 2; }));
    }
    setup.shut_down();
  }
  CHECK(match.expired());
}

TEST_CASE("durable relay: a report from a writer finishing its queue at shutdown is dropped") {
  std::weak_ptr<duelhall::server::Match> match;
  {
    StoppedRelay setup;
    {
      duelhall::testing::InProcessClient ann(*setup.server);
      duelhall::testing::InProcessClient ben(*setup.server);
      ann.hello("Ann");
      ben.hello("Ben");
      const uint64_t id =
          duelhall::testing::open_two_seat_match(ann, ben, duelhall::testing::kTestRuleset);
      match = setup.server->hub->find_match(id);
      act_once(ann, ben, id);
      setup.server->pump();  // the action reaches the writer's queue, maybe not yet stored
    }
    setup.server->hub.reset();
    setup.logs.reset();  // before the writer reports the action
    setup.shut_down();
  }
  CHECK(match.expired());
}
