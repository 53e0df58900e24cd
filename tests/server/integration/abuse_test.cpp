// Bad input against the real server: garbage bytes, text frames, oversized frames, floods. Each
// gets its result code or a close with a reason, and the server keeps serving everyone else.
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <fstream>
#include <thread>

#include "core/registry.hpp"
#include "helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// A bystander plays a bot match to its end: proof the server still serves others.
void bystander_plays(uint16_t port) {
  const auto registry = engine::builtin_registry();
  auto by = connect_as(port, "Bystander");
  auto created = by->request(create_match(registry.all().front().name, 2, true, 1));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  for (int guard = 0; guard < 5000; ++guard) {
    REQUIRE(by->wait_until([&] {
      auto* t = by->tracker().find(id);
      return t && (!t->legal.empty() || t->ended);
    }));
    const auto* t = by->tracker().find(id);
    if (t->ended) return;
    const uint64_t seq = t->seq;
    REQUIRE(by->request(action(id, t->legal.front().code(), seq)).result() == OK);
    REQUIRE(by->wait_until([&] { return by->tracker().find(id)->seq > seq; }));
  }
  FAIL("the bystander's match did not end");
}

}  // namespace

TEST_CASE("garbage bytes get MALFORMED_FRAME and the connection stays usable") {
  ServerProcess server;
  WsClient c;
  c.connect("127.0.0.1", server.port());
  c.send_raw(std::string("\xff\xff\xff\xff\x0f garbage", 13));
  auto reply = c.receive(std::chrono::seconds(5));
  REQUIRE(reply);
  CHECK(reply->result() == MALFORMED_FRAME);
  CHECK(c.request(ping(7)).pong().nonce() == 7);
  CHECK(c.hello("Ann").result() == OK);
  ClientMessage empty;
  CHECK(c.request(empty).result() == UNKNOWN_COMMAND);
}

TEST_CASE("a text frame is a protocol error: the connection is closed with a reason") {
  ServerProcess server;
  WsClient c;
  c.connect("127.0.0.1", server.port());
  c.send_raw("{\"hello\":1}", true);
  CHECK_THROWS_AS(c.wait_until([] { return false; }, std::chrono::seconds(5)),
                  client::ConnectionClosed);
  CHECK(c.close_code() == 1002);
  CHECK(c.close_reason().find("binary") != std::string::npos);
  bystander_plays(server.port());
}

TEST_CASE("a frame over the size limit is refused at the limit: close 1009 with FRAME_TOO_LARGE") {
  ServerProcess server({"--max-message", "4096"});
  WsClient c;
  c.connect("127.0.0.1", server.port());
  c.hello("Ann");
  ClientMessage big;
  big.mutable_chat()->set_text(std::string(5000, 'x'));
  try {
    c.send(big);
    c.wait_until([] { return false; }, std::chrono::seconds(5));
  } catch (const client::ConnectionClosed&) {
  }
  CHECK_FALSE(c.is_open());
  CHECK(c.close_code() == 1009);  // refused from the frame's header: Beast's close has no text
  bystander_plays(server.port());
  CHECK(server.alive());
}

TEST_CASE("a frame header announcing 2^62 bytes closes with 1009 at once, before any payload") {
  namespace beast = boost::beast;
  ServerProcess server;
  boost::asio::io_context io;
  beast::websocket::stream<beast::tcp_stream> ws(io);
  beast::get_lowest_layer(ws).connect({boost::asio::ip::make_address("127.0.0.1"), server.port()});
  ws.handshake("127.0.0.1", "/ws");
  // FIN + binary, masked, 64-bit length 2^62, a mask, and no payload at all.
  const unsigned char header[] = {0x82, 0xff, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
  boost::asio::write(beast::get_lowest_layer(ws).socket(), boost::asio::buffer(header));
  beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(5));
  beast::flat_buffer buffer;
  beast::error_code ec;
  ws.read(buffer, ec);
  CHECK(ec == beast::websocket::error::closed);  // a close frame, not the 5 s timeout
  CHECK(ws.reason().code == 1009);
  CHECK(server.alive());
}

TEST_CASE("a flood that gets a message through now and then is still closed") {
  ServerProcess server({"--messages-per-second", "50"});
  WsClient c;
  c.connect("127.0.0.1", server.port());
  c.hello("Trickle");
  // About 250 messages a second, five times the limit, in small bursts: the limiter lets one
  // through now and then as it refills, so the refusals never run to 100 in a row. Counted over
  // two seconds they pass 100 within the first.
  uint64_t sent = 0;
  try {
    for (int burst = 0; burst < 150 && c.is_open(); ++burst) {
      for (int k = 0; k < 5; ++k) c.send(ping(++sent));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  } catch (const client::ConnectionClosed&) {
  }
  try {
    while (c.receive(std::chrono::seconds(3))) {
    }
  } catch (const client::ConnectionClosed&) {
  }
  INFO(sent << " messages sent");
  CHECK_FALSE(c.is_open());
  CHECK(c.close_reason().find("RATE_LIMITED") != std::string::npos);
  CHECK(server.alive());
}

TEST_CASE("a flood gets RATE_LIMITED and then a close, while others are served") {
  ServerProcess server({"--messages-per-second", "50"});
  WsClient c;
  c.connect("127.0.0.1", server.port());
  c.hello("Flood");
  int sent = 0;
  try {
    for (; sent < 2000; ++sent) c.send(ping(static_cast<uint64_t>(sent)));
  } catch (const client::ConnectionClosed&) {
  }
  int limited = 0;
  try {
    while (auto m = c.receive(std::chrono::seconds(3))) {
      if (m->result() == RATE_LIMITED) ++limited;
    }
  } catch (const client::ConnectionClosed&) {
  }
  CHECK(limited > 0);
  CHECK_FALSE(c.is_open());
  CHECK(c.close_reason().find("RATE_LIMITED") != std::string::npos);
  bystander_plays(server.port());
  CHECK(server.alive());
}

TEST_CASE("random bytes from many connections never take the server down") {
  ServerProcess server;
  engine::Rng rng(engine::seed_from_number(99));
  for (int i = 0; i < 40; ++i) {
    WsClient c;
    c.connect("127.0.0.1", server.port());
    if (i % 2) c.hello(std::string("R").append(std::to_string(i)));
    try {
      for (int k = 0; k < 20; ++k) {
        std::string bytes(rng.below(200), '\0');
        for (char& ch : bytes) ch = static_cast<char>(rng.below(256));
        c.send_raw(bytes, false);
      }
      c.wait_until([] { return false; }, std::chrono::milliseconds(20));
    } catch (const client::ConnectionClosed&) {
    }
  }
  CHECK(server.alive());
  bystander_plays(server.port());
}

TEST_CASE("HTTP: /healthz, the built-in page, a configured web root, and no escaping it") {
  const auto root = std::filesystem::temp_directory_path() / "duelhall-web-root-test";
  std::filesystem::create_directories(root);
  std::ofstream(root / "index.html") << "<p>web client</p>";
  {
    ServerProcess bare({"--web-root", (root / "missing").string()});
    CHECK(http_get(bare.port(), "/").body.find("Duelhall") != std::string::npos);
    CHECK(http_get(bare.port(), "/other.js").status == 404);
    auto health = http_get(bare.port(), "/healthz");
    CHECK(health.status == 200);
    CHECK(health.body.find("\"status\":\"ok\"") != std::string::npos);
    CHECK(std::filesystem::is_directory(bare.data_dir()));
  }
  {
    ServerProcess served({"--web-root", root.string()});
    auto index = http_get(served.port(), "/");
    CHECK(index.status == 200);
    CHECK(index.body == "<p>web client</p>");
    CHECK(http_get(served.port(), "/../../etc/passwd").status == 400);
    CHECK(http_get(served.port(), "/nope.css").status == 404);
  }
  std::filesystem::remove_all(root);
}

TEST_CASE("a consumer too slow to read its frames is disconnected, the others go on") {
  ServerProcess server(
      {"--write-queue", "64", "--chat-per-minute", "60000000", "--messages-per-second", "1000000"});
  WsClient slow;
  slow.connect("127.0.0.1", server.port());
  slow.hello("Slow");
  ClientMessage sub;
  sub.mutable_subscribe_lobby()->set_subscribe(true);
  REQUIRE(slow.request(sub).result() == OK);
  auto talker = connect_as(server.port(), "Talker");
  talker->record_frames(false);
  ClientMessage chat;
  chat.mutable_chat()->set_text(std::string(300, 'z'));
  // About 13 MB of lobby chat for the slow reader: more than the kernel's socket buffers hold.
  const int messages = 40000;
  for (int batch = 0; batch < messages / 32; ++batch) {
    for (int i = 0; i < 32; ++i) talker->send(chat);
    // The talker reads its own replies, so that it is not the slow one.
    int replies = 0;
    REQUIRE(talker->wait_until([&] {
      while (!talker->pushed().empty()) {
        replies += talker->pushed().front().request_id() != 0;
        talker->pushed().pop_front();
      }
      return replies >= 32;
    }));
  }
  int received = 0;
  try {
    while (slow.receive(std::chrono::seconds(5))) ++received;
  } catch (const client::ConnectionClosed&) {
  }
  CHECK_FALSE(slow.is_open());
  CHECK(received < messages);
  CHECK(server.alive());
  bystander_plays(server.port());
}

TEST_CASE("a flooding client receives its close frame and its reason in every run") {
  // A low rate, so that the flood outruns it however slowly the server reads (under a sanitizer
  // a slow server refilled the limiter between messages and never saw a flood).
  ServerProcess server({"--messages-per-second", "20"});
  for (int run = 0; run < 6; ++run) {
    INFO("run " << run);
    WsClient c;
    c.connect("127.0.0.1", server.port());
    REQUIRE(c.hello("Flood").result() == OK);
    try {
      // 10,000 pings in batches, reading only what has already arrived between them.
      for (int batch = 0; batch < 20; ++batch) {
        for (int i = 0; i < 500; ++i) c.send(ping(static_cast<uint64_t>(batch * 500 + i)));
        c.receive(std::chrono::milliseconds(1));
      }
    } catch (const client::ConnectionClosed&) {
    }
    try {
      while (c.receive(std::chrono::seconds(5))) {
      }
    } catch (const client::ConnectionClosed&) {
    }
    CHECK_FALSE(c.is_open());
    CAPTURE(c.close_reason());
    CHECK(c.close_code() == 1008);
    CHECK(c.close_reason().rfind("RATE_LIMITED", 0) == 0);
  }
  CHECK(server.alive());
}
