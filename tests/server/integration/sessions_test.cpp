// Issue 29 against the real binary: the end of a session reaches the live connections signed in
// with it (item 5), and password commands run on the hashing pool, answered BUSY with a retry
// hint when its queue is full while other clients stay served (item 1).
#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <thread>

#include "helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

constexpr char kPassword[] = "correct horse";

struct SignedInClient {
  std::unique_ptr<WsClient> client;
  std::string session;
  std::string resume_token;
};

ClientMessage hello_with(const std::string& session, const std::string& resume = {}) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_session_token(session);
  m.mutable_hello()->set_resume_token(resume);
  return m;
}

SignedInClient register_on(uint16_t port, const std::string& name) {
  SignedInClient out{connect_as(port, "guest"), {}, {}};
  ClientMessage m;
  m.mutable_register_account()->set_name(name);
  m.mutable_register_account()->set_password(kPassword);
  auto reply = out.client->request(m);
  REQUIRE(reply.result() == OK);
  out.session = reply.signed_in().session_token();
  return out;
}

SignedInClient sign_in_on(uint16_t port, const std::string& name) {
  SignedInClient out{std::make_unique<WsClient>(), {}, {}};
  out.client->connect("127.0.0.1", port);
  auto welcome = out.client->hello("someone");
  REQUIRE(welcome.result() == OK);
  out.resume_token = welcome.welcome().resume_token();
  ClientMessage m;
  m.mutable_sign_in()->set_name(name);
  m.mutable_sign_in()->set_password(kPassword);
  auto reply = out.client->request(m);
  REQUIRE(reply.result() == OK);
  out.session = reply.signed_in().session_token();
  return out;
}

// A connection that said Hello with `session` (the same session as another connection's).
SignedInClient with_session(uint16_t port, const std::string& session) {
  SignedInClient out{std::make_unique<WsClient>(), session, {}};
  out.client->connect("127.0.0.1", port);
  auto welcome = out.client->request(hello_with(session));
  REQUIRE(welcome.result() == OK);
  REQUIRE_FALSE(welcome.welcome().account().guest());
  out.resume_token = welcome.welcome().resume_token();
  return out;
}

// Whether the server closed `c` with BAD_SESSION within a few seconds.
bool closed_for_session(WsClient& c) {
  try {
    c.wait_until([] { return false; }, std::chrono::milliseconds(5000));
  } catch (const client::ConnectionClosed&) {
  }
  return c.close_reason().starts_with("BAD_SESSION");
}

ClientMessage own_profile() {
  ClientMessage m;
  m.mutable_get_profile();
  return m;
}

int delete_session(uint16_t port, const std::string& session) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{http::verb::delete_, "/api/session", 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::authorization, "Bearer " + session);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return res.result_int();
}

}  // namespace

TEST_CASE(
    "item 5: a password change closes the account's other sessions' connections, and "
    "their resume tokens come back as guests") {
  ServerProcess server;
  auto owner = register_on(server.port(), "owner5");
  auto stolen = sign_in_on(server.port(), "owner5");
  ClientMessage change;
  change.mutable_change_password()->set_old_password(kPassword);
  change.mutable_change_password()->set_new_password("a brand new secret");
  REQUIRE(owner.client->request(change).result() == OK);
  CHECK(closed_for_session(*stolen.client));
  // The stolen connection's resume token resumes its player, without the account.
  auto resumed = std::make_unique<WsClient>();
  resumed->connect("127.0.0.1", server.port());
  ClientMessage resume;
  resume.mutable_hello()->set_protocol_version(1);
  resume.mutable_hello()->set_resume_token(stolen.resume_token);
  auto welcome = resumed->request(resume);
  REQUIRE(welcome.result() == OK);
  CHECK(welcome.welcome().resumed());
  CHECK_FALSE(welcome.welcome().has_account());
  CHECK(resumed->request(own_profile()).result() == UNKNOWN_ACCOUNT);
  // The owner's own connection goes on.
  CHECK(owner.client->request(own_profile()).result() == OK);
  CHECK(server.alive());
}

TEST_CASE("item 5: SignOut closes the other connections signed in with the same session") {
  ServerProcess server;
  auto first = register_on(server.port(), "owner5b");
  auto second = with_session(server.port(), first.session);
  ClientMessage out;
  out.mutable_sign_out();
  REQUIRE(first.client->request(out).result() == OK);
  CHECK(closed_for_session(*second.client));
  auto resumed = std::make_unique<WsClient>();
  resumed->connect("127.0.0.1", server.port());
  auto welcome = resumed->request(hello_with("", second.resume_token));
  REQUIRE(welcome.result() == OK);
  CHECK_FALSE(welcome.welcome().has_account());
}

TEST_CASE("item 5: DELETE /api/session closes the connections signed in with that session") {
  ServerProcess server;
  auto owner = register_on(server.port(), "owner5c");
  auto other = sign_in_on(server.port(), "owner5c");
  CHECK(delete_session(server.port(), owner.session) == 200);
  CHECK(closed_for_session(*owner.client));
  // A session of its own, not ended: that connection stays signed in.
  CHECK(other.client->request(own_profile()).result() == OK);
}

TEST_CASE("item 5: deleting the account closes its other connections") {
  ServerProcess server;
  auto owner = register_on(server.port(), "owner5d");
  auto other = sign_in_on(server.port(), "owner5d");
  ClientMessage remove;
  remove.mutable_delete_account()->set_password(kPassword);
  REQUIRE(owner.client->request(remove).result() == OK);
  CHECK(closed_for_session(*other.client));
  CHECK(owner.client->request(own_profile()).result() == UNKNOWN_ACCOUNT);
}

TEST_CASE(
    "item 1: a password flood is answered BUSY with retry_after_ms past the hashing "
    "queue, in order per connection, while another client is served") {
  ServerProcess server({"--hash-threads", "1", "--hash-queue", "2", "--sign-in-failures", "100000",
                        "--address-failures", "100000", "--account-failures", "100000",
                        "--password-checks", "100000"});
  auto owner = register_on(server.port(), "flooded");
  std::vector<SignedInClient> flood;
  for (int i = 0; i < 8; ++i) flood.push_back(with_session(server.port(), owner.session));
  auto bystander = connect_as(server.port(), "bystander");
  for (auto& c : flood) {
    for (int k = 0; k < 4; ++k) {
      ClientMessage change;
      change.mutable_change_password()->set_old_password("not the password");
      change.mutable_change_password()->set_new_password("another password");
      c.client->send(change);
    }
  }
  ClientMessage ping;
  ping.mutable_ping()->set_nonce(7);
  CHECK(bystander->request(ping).pong().nonce() == 7);
  int busy = 0;
  int wrong = 0;
  for (auto& c : flood) {
    uint64_t last_id = 0;
    for (int k = 0; k < 4; ++k) {
      auto reply = c.client->receive(std::chrono::milliseconds(30'000));
      REQUIRE(reply);
      CHECK(reply->request_id() > last_id);  // in the order they were sent
      last_id = reply->request_id();
      if (reply->result() == BUSY) {
        ++busy;
        CHECK(reply->retry_after_ms() > 0);
      } else {
        CHECK(reply->result() == WRONG_PASSWORD);
        ++wrong;
      }
    }
  }
  CHECK(busy > 0);
  CHECK(wrong > 0);
  CHECK(busy + wrong == 32);
  CHECK(server.alive());
}
