// A PostgreSQL outage pauses play, it never loses or aborts a match (docs/storage.md): the real
// server on a throw-away PostgreSQL that stops for a few seconds mid-match. The action made
// during the outage is refused with STORAGE_UNAVAILABLE and a retry hint, both players are told
// the match waits for its store, /readyz says "store unavailable" meanwhile, a new player's Hello
// and a new match are refused the same way (typed, retryable), and once PostgreSQL is back play
// resumes by itself (the time it took is printed) and no call fails once. Every action
// acknowledged OK is stored, and the match ends as its players ended it.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <thread>

#include "helpers.hpp"
#include "storage/postgres/postgres_match_store.hpp"
#include "support/throwaway_postgres.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// The seat whose view shows `seq` (every acknowledged action) and a decision sends its first
// legal action; returns the reply. A view behind would offer a decision the match has moved past.
ServerMessage act(WsClient& ann, WsClient& ben, uint64_t id, uint64_t seq) {
  auto has_turn = [&](WsClient& c) {
    const auto* t = c.tracker().find(id);
    return t && t->seq == seq && !t->legal.empty();
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    for (WsClient* c : {&ann, &ben}) {
      c->wait_until([&] { return has_turn(*c); }, std::chrono::milliseconds(50));
      if (!has_turn(*c)) continue;
      const auto* t = c->tracker().find(id);
      return c->request(action(id, t->legal.front().code(), t->seq));
    }
  }
  FAIL("no seat has a decision at seq " << seq);
  return {};
}

// A Hello from a new connection, as a browser sends it (with its guest token).
ServerMessage guest_hello(uint16_t port, const std::string& name, char token_digit) {
  WsClient c;
  c.connect("127.0.0.1", port);
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(1);
  hello.mutable_hello()->set_display_name(name);
  hello.mutable_hello()->set_guest_token(std::string(64, token_digit));
  return c.request(hello);
}

bool told_storage(WsClient& c, bool waiting) {
  for (const auto& m : c.pushed()) {
    if (m.has_storage_wait() && m.storage_wait().waiting() == waiting) return true;
  }
  return false;
}

bool readyz_is(uint16_t port, unsigned status) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (http_get(port, "/readyz").status == status) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST_CASE("a PostgreSQL outage pauses a match, which resumes by itself with nothing lost") {
  ThrowawayPostgres postgres;
  const std::string url = postgres.new_database();
  ServerProcess server({"--database", url});
  REQUIRE(readyz_is(server.port(), 200));
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  const ServerMessage created = ann->request(create_match("force_battles", 2, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(ben->request(join_match(id, 1)).result() == OK);
  size_t acknowledged = 0;
  for (int i = 0; i < 2; ++i) {
    REQUIRE(act(*ann, *ben, id, acknowledged).result() == OK);
    ++acknowledged;
  }

  postgres.stop_server();
  const auto stopped = std::chrono::steady_clock::now();
  const ServerMessage refused = act(*ann, *ben, id, acknowledged);
  CHECK(refused.result() == STORAGE_UNAVAILABLE);
  CHECK(refused.retry_after_ms() > 0);
  for (WsClient* c : {ann.get(), ben.get()}) {
    REQUIRE(c->wait_until([&] { return told_storage(*c, true); }, std::chrono::seconds(5)));
    CHECK_FALSE(c->tracker().find(id)->ended);
    CHECK_FALSE(c->tracker().find(id)->broken);
  }
  CHECK(ann->tracker().find(id)->seq == acknowledged);
  CHECK(readyz_is(server.port(), 503));
  CHECK(http_get(server.port(), "/readyz").body.find("store unavailable") != std::string::npos);
  // A new player (its guest account is the store's) and a new match (it could not be stored) are
  // refused with the same typed, retryable code, not INTERNAL_ERROR.
  const ServerMessage hello_refused = guest_hello(server.port(), "Dot", '7');
  CHECK(hello_refused.result() == STORAGE_UNAVAILABLE);
  CHECK(hello_refused.retry_after_ms() > 0);
  const ServerMessage create_refused = ann->request(create_match("force_battles", 2, true, 0));
  CHECK(create_refused.result() == STORAGE_UNAVAILABLE);
  CHECK(create_refused.retry_after_ms() > 0);
  std::this_thread::sleep_for(std::chrono::seconds(3) -
                              (std::chrono::steady_clock::now() - stopped));

  postgres.start_server();
  const auto back = std::chrono::steady_clock::now();
  REQUIRE(ann->wait_until([&] { return told_storage(*ann, false); }, std::chrono::seconds(10)));
  const auto resumed = std::chrono::steady_clock::now();
  REQUIRE(ben->wait_until([&] { return told_storage(*ben, false); }, std::chrono::seconds(5)));
  std::printf("PostgreSQL outage: play resumed %lld ms after PostgreSQL was back\n",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(resumed - back).count()));
  CHECK(readyz_is(server.port(), 200));
  // No call fails once for the connections PostgreSQL dropped: a new player's Hello (its guest
  // account is written), a creation, the next actions.
  CHECK(guest_hello(server.port(), "Dot", '7').result() == OK);
  auto cid = connect_as(server.port(), "Cid");
  CHECK(cid->request(create_match("force_battles", 2, true, 0)).result() == OK);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(act(*ann, *ben, id, acknowledged).result() == OK);
    ++acknowledged;
  }
  ClientMessage resign;
  resign.mutable_resign()->set_match_id(id);
  REQUIRE(ann->request(resign).result() == OK);
  REQUIRE(ben->wait_until([&] { return ben->tracker().find(id)->ended; }));
  CHECK(ben->tracker().find(id)->status == FINISHED);

  storage::PostgresMatchStore store(url);
  const auto stored = store.load_match(id);
  REQUIRE(stored);
  CHECK(stored->steps.size() == acknowledged);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
}
