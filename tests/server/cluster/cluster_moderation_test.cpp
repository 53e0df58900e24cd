// Moderation across nodes (docs/moderation.md): two duelhall processes sharing a throw-away
// Redis and a throw-away PostgreSQL. A moderator on node A mutes, kicks, bans and unbans an
// account connected to node B, and B applies each at once (the cluster's `moderation` channel);
// a ban made while Redis was away is applied by B when its feed comes back (it reloads the bans
// from the store and closes what they cover).
#include <catch2/catch.hpp>

#include "../integration/moderation_helpers.hpp"
#include "redis_server.hpp"
#include "support/throwaway_postgres.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

const std::string kSecret = "the shared secret of the test cluster";

std::vector<std::string> node_args(const RedisServer& redis, const std::string& name,
                                   const std::string& database) {
  return {"--cluster",        redis.url(), "--node-name", name,
          "--cluster-secret", kSecret,     "--database",  database,
          "--kick-hold",      "3"};  // short, so that a kicked account comes back in the test
}

bool ready(const ServerProcess& server) {
  try {
    return http_get(server.port(), "/readyz").status == 200;
  } catch (const std::exception&) {
    return false;
  }
}

// Waits up to `seconds` for `done`.
bool eventually(const std::function<bool()>& done, int seconds = 10) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

bool got_sanction(WsClient& c, const std::string& kind) {
  for (const auto& m : c.pushed()) {
    if (m.has_sanction() && m.sanction().kind() == kind) return true;
  }
  return false;
}

// A new connection to `port` saying Hello with the account's session: its result.
ResultCode hello_result(uint16_t port, const std::string& session) {
  WsClient c;
  c.connect("127.0.0.1", port);
  return c.request(hello_with_session(session)).result();
}

// Reads until the server closes the connection, for up to `seconds`; its close reason.
std::string close_reason_within(WsClient& c, int seconds) {
  try {
    c.wait_until([] { return false; }, std::chrono::milliseconds(seconds * 1000));
  } catch (const std::exception&) {
  }
  return c.close_reason();
}

struct TwoNodes {
  RedisServer redis;
  std::string database = ThrowawayPostgres::shared().new_database();
  std::unique_ptr<ServerProcess> a, b;
  TwoNodes() {
    a = std::make_unique<ServerProcess>(node_args(redis, "node-a", database));
    REQUIRE(eventually([&] { return ready(*a); }));
    b = std::make_unique<ServerProcess>(node_args(redis, "node-b", database));
    REQUIRE(eventually([&] { return ready(*b); }));
  }
};

}  // namespace

TEST_CASE(
    "moderation across nodes: a mute, kick, ban and unban made on node A apply at once to the "
    "account connected to node B") {
  TwoNodes cluster;
  const uint16_t b = cluster.b->port();
  auto mod = account_connection(cluster.a->port(), "mod");
  grant_on_command_line(*cluster.a, "mod", "moderator", {"--database", cluster.database});
  std::string session;
  auto troll = account_connection(b, "troll", &session);
  REQUIRE(troll->request(chat_message(0, "hello all")).result() == OK);

  // Muted on A: B tells the troll and refuses its next line.
  REQUIRE(mod->request(mute_message(account_target("troll"), 600, "spam")).result() == OK);
  REQUIRE(troll->wait_until([&] { return got_sanction(*troll, "mute"); }));
  const ServerMessage refused = troll->request(chat_message(0, "buy gold"));
  CHECK(refused.result() == MUTED);
  CHECK(refused.reason().find("spam") != std::string::npos);
  ClientMessage unmute;
  *unmute.mutable_unmute()->mutable_target() = account_target("troll");
  REQUIRE(mod->request(unmute).result() == OK);
  CHECK(eventually([&] { return troll->request(chat_message(0, "sorry")).result() == OK; }));

  // Kicked on A though connected to B only: B closes it and holds the account out for the kick
  // hold (3 s here); a kick is not a ban, so it comes back after.
  ClientMessage kick;
  *kick.mutable_kick()->mutable_target() = account_target("troll");
  kick.mutable_kick()->set_reason("cool off");
  REQUIRE(mod->request(kick).result() == OK);
  CHECK(close_reason_within(*troll, 10).find("KICKED: cool off") != std::string::npos);
  CHECK(hello_result(b, session) != OK);
  std::unique_ptr<WsClient> back;
  REQUIRE(eventually([&] {
    back = std::make_unique<WsClient>();
    back->connect("127.0.0.1", b);
    return back->request(hello_with_session(session)).result() == OK;
  }));

  // Banned on A: B closes its connection and refuses its session from then on.
  const ServerMessage banned = mod->request(ban_message(account_target("troll"), 3600, "cheating"));
  REQUIRE(banned.result() == OK);
  REQUIRE(banned.bans().bans_size() == 1);
  CHECK(close_reason_within(*back, 10).find("BANNED: banned until") != std::string::npos);
  CHECK(hello_result(b, session) == BANNED);

  // Unbanned on A: B lets it in again.
  ClientMessage unban;
  unban.mutable_unban()->set_ban_id(banned.bans().bans(0).id());
  REQUIRE(mod->request(unban).result() == OK);
  CHECK(eventually([&] { return hello_result(b, session) == OK; }));
  CHECK(cluster.a->alive());
  CHECK(cluster.b->alive());
}

TEST_CASE(
    "moderation across nodes: a ban made while Redis was away reaches node B when its feed "
    "comes back (B reloads the bans and closes the banned connection)") {
  TwoNodes cluster;
  const uint16_t b = cluster.b->port();
  auto mod = account_connection(cluster.a->port(), "mod");
  grant_on_command_line(*cluster.a, "mod", "moderator", {"--database", cluster.database});
  std::string session;
  auto troll = account_connection(b, "troll", &session);

  cluster.redis.stop();
  REQUIRE(eventually([&] { return !ready(*cluster.b); }));
  // Stored in PostgreSQL; the broadcast is lost with Redis.
  REQUIRE(mod->request(ban_message(account_target("troll"), 0, "abuse")).result() == OK);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(troll->request(ping(7)).result() == OK);  // B has not heard of it

  cluster.redis.start();
  CHECK(close_reason_within(*troll, 15).find("BANNED: banned for good: abuse") !=
        std::string::npos);
  CHECK(hello_result(b, session) == BANNED);
}
