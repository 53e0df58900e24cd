// DurableRelay (server/match/durable_log.hpp): the store's writer hands its reports to the I/O
// threads as one post per batch, not one per action, and they run there in the writer's order.
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "match/durable_log.hpp"

using duelhall::server::DurableRelay;

TEST_CASE("durable relay: a batch of reports costs one post, and they run in order on the I/O") {
  boost::asio::io_context io;
  auto relay = std::make_shared<DurableRelay>(io.get_executor());
  std::vector<std::string> ran;
  std::vector<std::thread::id> threads;
  std::thread writer([&] {
    for (int i = 0; i < 5; ++i) {
      relay->report(
          [&, i](const duelhall::server::LogOutcome& outcome) {
            ran.push_back(std::to_string(i) + outcome.error);
            threads.push_back(std::this_thread::get_id());
          },
          duelhall::server::LogOutcome(i == 3 ? "!" : ""));
    }
  });
  writer.join();
  CHECK(ran.empty());  // nothing runs on the writer's thread
  CHECK(relay->drains() == 1);
  io.run();
  CHECK(ran == std::vector<std::string>{"0", "1", "2", "3!", "4"});
  for (auto id : threads) CHECK(id == std::this_thread::get_id());
  // The next batch posts again.
  io.restart();
  relay->report([&](const duelhall::server::LogOutcome&) { ran.push_back("5"); }, {});
  CHECK(relay->drains() == 2);
  io.run();
  CHECK(ran.back() == "5");
}
