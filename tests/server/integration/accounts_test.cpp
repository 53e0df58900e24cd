// Accounts against the real binary: registration and sign-in over the WebSocket, typed refusals
// for bad input, the sign-in limits, a rated match whose leaver loses, the history, profile and
// leaderboard over the WebSocket and HTTP, a restart that keeps accounts, sessions and
// ratings, and a rated match rated when a restart finds its last step stored but not its end.
#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <optional>
#include <thread>

#include "core/registry.hpp"
#include "helpers.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage register_account(const std::string& name, const std::string& password) {
  ClientMessage m;
  m.mutable_register_account()->set_name(name);
  m.mutable_register_account()->set_password(password);
  return m;
}

ClientMessage sign_in(const std::string& name, const std::string& password) {
  ClientMessage m;
  m.mutable_sign_in()->set_name(name);
  m.mutable_sign_in()->set_password(password);
  return m;
}

ClientMessage hello_session(const std::string& session) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_session_token(session);
  return m;
}

std::unique_ptr<WsClient> connect_raw(uint16_t port) {
  auto c = std::make_unique<WsClient>();
  c->connect("127.0.0.1", port);
  c->record_frames(true);
  return c;
}

// A connection signed in as a new account; returns its session token in `session`.
std::unique_ptr<WsClient> registered(uint16_t port, const std::string& name, std::string& session) {
  auto c = connect_as(port, "guest");
  auto reply = c->request(register_account(name, "correct horse"));
  REQUIRE(reply.result() == OK);
  REQUIRE(reply.signed_in().account().name() == name);
  session = reply.signed_in().session_token();
  return c;
}

HttpAnswer http_call(uint16_t port, boost::beast::http::verb verb, const std::string& target,
                     const std::string& bearer = {}) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  return {res.result_int(), res.body()};
}

ClientMessage rated_match() {
  ClientMessage m = create_match("force_battles", 2, true, 0);
  m.mutable_create_match()->mutable_settings()->set_rated(true);
  return m;
}

}  // namespace

TEST_CASE("accounts over the WebSocket: register, sign in, and each bad input a typed refusal") {
  ServerProcess server;
  std::string session;
  auto alice = registered(server.port(), "Alice", session);
  auto other = connect_as(server.port(), "someone");
  CHECK(other->request(register_account("aLiCe", "correct horse")).result() == NAME_TAKEN);
  CHECK(other->request(register_account("bob", "short")).result() == WEAK_PASSWORD);
  CHECK(other->request(register_account("b b", "correct horse")).result() == BAD_ACCOUNT_NAME);
  CHECK(other->request(register_account(std::string(10'000, 'b'), "correct horse")).result() ==
        FIELD_TOO_LONG);
  CHECK(other->request(sign_in("alice", "wrong horse")).result() == WRONG_PASSWORD);
  CHECK(other->request(sign_in("nobody", "correct horse")).result() == UNKNOWN_ACCOUNT);
  CHECK(alice->request(sign_in("alice", "correct horse")).result() == ALREADY_SIGNED_IN);
  ClientMessage change;
  change.mutable_change_password()->set_old_password("not it");
  change.mutable_change_password()->set_new_password("new password");
  CHECK(alice->request(change).result() == WRONG_PASSWORD);
  ClientMessage remove;
  remove.mutable_delete_account()->set_password("correct horse");
  CHECK(other->request(remove).result() == SIGN_IN_REQUIRED);  // a guest has no account to delete
  // Nothing of the refused registrations was stored.
  CHECK(http_call(server.port(), boost::beast::http::verb::get, "/api/accounts/bob").status == 404);

  auto again = connect_raw(server.port());
  CHECK(again->request(hello_session("00" + session.substr(2))).result() == BAD_SESSION);
  auto back = connect_raw(server.port());
  auto welcome = back->request(hello_session(session));
  REQUIRE(welcome.result() == OK);
  CHECK(welcome.welcome().account().name() == "Alice");
  CHECK(welcome.welcome().display_name() == "Alice");
  // Signing out revokes the session: a later hello with it is refused.
  ClientMessage out;
  out.mutable_sign_out();
  CHECK(back->request(out).result() == OK);
  CHECK(connect_raw(server.port())->request(hello_session(session)).result() == BAD_SESSION);
  CHECK(server.alive());
}

TEST_CASE("a flood of failed sign-ins is stopped with TOO_MANY_ATTEMPTS and the wait") {
  ServerProcess server({"--sign-in-failures", "3"});
  std::string session;
  auto carol = registered(server.port(), "carol", session);
  auto flood = connect_as(server.port(), "flooder");
  for (int i = 0; i < 3; ++i) {
    CHECK(flood->request(sign_in("carol", "guess " + std::to_string(i))).result() ==
          WRONG_PASSWORD);
  }
  auto limited = flood->request(sign_in("carol", "correct horse"));
  CHECK(limited.result() == TOO_MANY_ATTEMPTS);
  CHECK(limited.reason().find("seconds") != std::string::npos);
  CHECK(server.alive());
}

TEST_CASE("rated matches: accounts only, two seats, no bots") {
  ServerProcess server;
  auto guest = connect_as(server.port(), "guest");
  CHECK(guest->request(rated_match()).result() == SIGN_IN_REQUIRED);
  std::string session;
  auto dora = registered(server.port(), "dora", session);
  ClientMessage three = create_match("jedi_duel", 3, true, 0);
  three.mutable_create_match()->mutable_settings()->set_rated(true);
  CHECK(dora->request(three).result() == BAD_PARAMETERS);
  ClientMessage bots = create_match("force_battles", 2, true, 1);
  bots.mutable_create_match()->mutable_settings()->set_rated(true);
  CHECK(dora->request(bots).result() == BAD_PARAMETERS);
  auto created = dora->request(rated_match());
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  CHECK(guest->request(join_match(id, 1)).result() == SIGN_IN_REQUIRED);
  // The same account on a second connection does not take the other seat.
  auto twin = connect_raw(server.port());
  REQUIRE(twin->request(hello_session(session)).result() == OK);
  CHECK(twin->request(join_match(id, 1)).result() == ALREADY_SEATED);
}

TEST_CASE("a rated match: the leaver loses, ratings move, and a restart keeps it all") {
  const auto data = temp_data_dir("accounts");
  std::string erin_session;
  std::string finn_session;
  uint64_t id = 0;
  {
    ServerProcess server({"--provisional-rd", "350"}, data, true);
    auto erin = registered(server.port(), "erin", erin_session);
    auto finn = registered(server.port(), "finn", finn_session);
    auto created = erin->request(rated_match());
    REQUIRE(created.result() == OK);
    id = created.created().match().match_id();
    REQUIRE(finn->request(join_match(id, 1)).result() == OK);
    REQUIRE(erin->wait_until([&] {
      auto* t = erin->tracker().find(id);
      return t && !t->view.empty();
    }));
    ClientMessage leave;
    leave.mutable_leave_match()->set_match_id(id);
    REQUIRE(finn->request(leave).result() == OK);
    auto rating_update = [](WsClient& c) -> const RatingUpdate* {
      for (const auto& m : c.pushed()) {
        if (m.has_rating_update()) return &m.rating_update();
      }
      return nullptr;
    };
    REQUIRE(erin->wait_until([&] { return rating_update(*erin) != nullptr; }));
    const RatingUpdate& update = *rating_update(*erin);
    CHECK(update.match_id() == id);
    REQUIRE(update.changes_size() == 2);
    CHECK(update.changes(0).name() == "erin");
    CHECK(update.changes(0).after() > update.changes(0).before());  // finn left: erin won
    CHECK(update.changes(1).after() < update.changes(1).before());
    REQUIRE(finn->wait_until([&] { return rating_update(*finn) != nullptr; }));
    server.stop_cleanly();
  }
  ServerProcess server({"--provisional-rd", "350"}, data, true);
  auto erin = connect_raw(server.port());
  REQUIRE(erin->request(hello_session(erin_session)).result() == OK);  // the session survived
  ClientMessage profile;
  profile.mutable_get_profile()->set_name("finn");
  auto finn = erin->request(profile);
  REQUIRE(finn.result() == OK);
  REQUIRE(finn.profile().ratings_size() == 1);
  CHECK(finn.profile().ratings(0).ruleset() == "force_battles");
  CHECK(finn.profile().ratings(0).rating() < 1500);
  REQUIRE(finn.profile().history_size() == 1);
  CHECK(finn.profile().history(0).match_id() == id);
  CHECK(finn.profile().history(0).result() == "loss");
  CHECK(finn.profile().history(0).opponents(0).name() == "erin");
  ClientMessage board;
  board.mutable_get_leaderboard()->set_ruleset("force_battles");
  auto leaders = erin->request(board);
  REQUIRE(leaders.leaderboard().entries_size() == 2);
  CHECK(leaders.leaderboard().entries(0).name() == "erin");
  CHECK(leaders.leaderboard().entries(1).name() == "finn");

  // The same over HTTP, as JSON.
  using boost::beast::http::verb;
  auto matches = http_call(server.port(), verb::get, "/api/accounts/erin/matches");
  CHECK(matches.status == 200);
  CHECK(matches.body.find("\"match_id\":" + std::to_string(id)) != std::string::npos);
  CHECK(matches.body.find("\"result\":\"win\"") != std::string::npos);
  CHECK(matches.body.find("\"rating_change\":") != std::string::npos);
  auto leaderboard = http_call(server.port(), verb::get, "/api/leaderboard/force_battles");
  CHECK(leaderboard.body.find("erin") < leaderboard.body.find("finn"));
  CHECK(http_call(server.port(), verb::get, "/api/me").status == 401);
  auto me = http_call(server.port(), verb::get, "/api/me", finn_session);
  CHECK(me.status == 200);
  CHECK(me.body.find("\"name\":\"finn\"") != std::string::npos);
  CHECK(http_call(server.port(), verb::delete_, "/api/session", finn_session).status == 200);
  CHECK(http_call(server.port(), verb::get, "/api/me", finn_session).status == 401);
  CHECK(connect_raw(server.port())->request(hello_session(finn_session)).result() == BAD_SESSION);
  server.stop_cleanly();
  std::error_code ec;
  std::filesystem::remove_all(data, ec);
}

TEST_CASE(
    "a guest's matches stay its own when it registers, and no guest takes an account's name") {
  ServerProcess server;
  auto gus = connect_raw(server.port());
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(1);
  hello.mutable_hello()->set_display_name("Gus");
  hello.mutable_hello()->set_guest_token(std::string(64, '7'));
  auto welcome = gus->request(hello);
  REQUIRE(welcome.result() == OK);
  REQUIRE(welcome.welcome().account().guest());
  const uint64_t guest_id = welcome.welcome().account().id();
  // A match as a guest: Gus leaves it to the bot, which plays it to its end.
  auto created = gus->request(create_match("force_battles", 2, true, 1));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage leave;
  leave.mutable_leave_match()->set_match_id(id);
  REQUIRE(gus->request(leave).result() == OK);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (http_call(server.port(), boost::beast::http::verb::get,
                   "/matches/" + std::to_string(id) + "/export")
             .status != 200) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto registered_reply = gus->request(register_account("gus_acc", "correct horse"));
  REQUIRE(registered_reply.result() == OK);
  CHECK(registered_reply.signed_in().account().id() == guest_id);  // the same account
  ClientMessage history;
  history.mutable_get_history();
  auto mine = gus->request(history);
  REQUIRE(mine.result() == OK);
  REQUIRE(mine.history().entries_size() == 1);
  CHECK(mine.history().entries(0).match_id() == id);
  CHECK_FALSE(mine.history().entries(0).rated());

  auto impostor = connect_raw(server.port());
  ClientMessage as_gus;
  as_gus.mutable_hello()->set_protocol_version(1);
  as_gus.mutable_hello()->set_display_name("GUS_ACC");
  CHECK(impostor->request(as_gus).result() == BAD_NAME);
}

TEST_CASE("a rated match whose last step was stored but not its end is rated when it comes back") {
  const auto data = temp_data_dir("rated-stored-end");
  const std::vector<std::string> flags = {"--provisional-rd", "350", "--grace", "300"};
  std::string gwen_session;
  std::string hal_session;
  uint64_t id = 0;
  {
    ServerProcess server(flags, data, true);
    auto gwen = registered(server.port(), "gwen", gwen_session);
    auto hal = registered(server.port(), "hal", hal_session);
    // Young Jedi: its rules have a concession, so a rules' end is one step away at any time.
    ClientMessage create = create_match("young_jedi", 2, true, 0);
    create.mutable_create_match()->mutable_settings()->set_rated(true);
    auto created = gwen->request(create);
    REQUIRE(created.result() == OK);
    id = created.created().match().match_id();
    REQUIRE(hal->request(join_match(id, 1)).result() == OK);
    REQUIRE(gwen->wait_until([&] {
      auto* t = gwen->tracker().find(id);
      return t && !t->view.empty();
    }));
    server.stop_cleanly();
  }
  // The process dies after a resignation's commit and before the end's: the store holds the
  // live match with that last step.
  int resigned = -1;
  {
    const auto registry = engine::builtin_registry();
    const auto* info = registry.find("young_jedi");
    storage::SqliteMatchStore store((data / "duelhall.db").string());
    auto stored = store.load_match(static_cast<storage::MatchId>(id));
    REQUIRE(stored);
    REQUIRE(stored->summary.status == storage::MatchStatus::kLive);
    std::string error;
    auto state = engine::replay(registry, stored->config, stored->steps, error);
    REQUIRE(state);
    // The players' steps up to the first concession, then the concession, all stored.
    const auto& kinds = info->resign_kinds;
    for (int step = 0; step < 10 && !state->terminal(); ++step) {
      const int seat = state->pending().has(0) ? 0 : 1;
      const std::vector<engine::Action> legal = state->legal_actions(seat);
      REQUIRE_FALSE(legal.empty());
      auto concede = std::find_if(legal.begin(), legal.end(), [&](const engine::Action& a) {
        return std::find(kinds.begin(), kinds.end(), a.kind) != kinds.end();
      });
      const engine::Action chosen = concede != legal.end() ? *concede : legal.front();
      if (concede != legal.end()) resigned = seat;
      store.append({static_cast<storage::MatchId>(id),
                    static_cast<uint32_t>(state->history().size()), seat, chosen, 0});
      REQUIRE(state->apply(seat, chosen, nullptr).ok());
    }
    REQUIRE(resigned >= 0);
    REQUIRE(state->terminal());
  }
  const std::string loser = resigned == 0 ? "gwen" : "hal";
  const std::string winner = resigned == 0 ? "hal" : "gwen";
  {
    ServerProcess server(flags, data, true);
    auto gwen = connect_raw(server.port());
    REQUIRE(gwen->request(hello_session(gwen_session)).result() == OK);
    auto profile_of = [&](const std::string& name) {
      ClientMessage profile;
      profile.mutable_get_profile()->set_name(name);
      return gwen->request(profile);
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (profile_of(loser).profile().ratings_size() == 0) {
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    auto lost = profile_of(loser);
    CHECK(lost.profile().ratings(0).rating() < 1500);
    REQUIRE(lost.profile().history_size() == 1);
    CHECK(lost.profile().history(0).match_id() == id);
    CHECK(lost.profile().history(0).result() == "loss");
    auto won = profile_of(winner);
    REQUIRE(won.profile().ratings_size() == 1);
    CHECK(won.profile().ratings(0).rating() > 1500);
    server.stop_cleanly();
  }
  storage::SqliteMatchStore store((data / "duelhall.db").string());
  CHECK(store.load_match(static_cast<storage::MatchId>(id))->summary.status ==
        storage::MatchStatus::kFinished);
  std::error_code ec;
  std::filesystem::remove_all(data, ec);
}
