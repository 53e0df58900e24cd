// GatherStream (server/net/gather_stream.hpp) under a real Beast WebSocket on a loopback TCP
// connection: frames written with more behind them leave in one write of the stream below, in
// order, and anything written with nothing behind it (the last frame, a ping, a close) flushes
// what is pending.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "net/gather_stream.hpp"

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using duelhall::server::GatherStream;

namespace {

struct Pair {
  net::io_context io;
  websocket::stream<GatherStream<beast::tcp_stream>> server{
      GatherStream<beast::tcp_stream>(beast::tcp_stream(io))};
  websocket::stream<beast::tcp_stream> client{io};

  Pair() {
    tcp::acceptor acceptor(io, {net::ip::make_address("127.0.0.1"), 0});
    client.next_layer().connect(acceptor.local_endpoint());
    acceptor.accept(beast::get_lowest_layer(server).socket());
    server.async_accept([](beast::error_code ec) { REQUIRE(!ec); });
    client.async_handshake("127.0.0.1", "/", [](beast::error_code ec) { REQUIRE(!ec); });
    io.run();
    io.restart();
    server.binary(true);
    server.auto_fragment(false);       // as WsSession: one message, one write
    writes_in = gather().writes_in();  // the handshake's response went through it too
    writes_out = gather().writes_out();
  }
  GatherStream<beast::tcp_stream>& gather() { return server.next_layer(); }
  size_t written_in() { return gather().writes_in() - writes_in; }
  size_t written_out() { return gather().writes_out() - writes_out; }
  size_t writes_in = 0;
  size_t writes_out = 0;

  // Writes `frames` one after another, each saying whether more follow (as WsSession does).
  void write_queue(std::vector<std::string>& frames, size_t next = 0) {
    if (next == frames.size()) return;
    gather().more_follow(next + 1 < frames.size());
    server.async_write(net::buffer(frames[next]),
                       [this, &frames, next](beast::error_code ec, size_t n) {
                         REQUIRE(!ec);
                         REQUIRE(n == frames[next].size());
                         write_queue(frames, next + 1);
                       });
  }
  std::string read_client() {
    beast::flat_buffer buffer;
    client.read(buffer);
    return beast::buffers_to_string(buffer.data());
  }
};

}  // namespace

TEST_CASE("gather stream: frames queued behind one another leave in one write, in order") {
  Pair p;
  std::vector<std::string> frames = {"first", std::string(300, 'x'), "third", "fourth"};
  p.write_queue(frames);
  p.io.run();
  CHECK(p.written_in() == 4);
  CHECK(p.written_out() == 1);
  for (const auto& f : frames) CHECK(p.read_client() == f);
}

TEST_CASE("gather stream: a lone frame goes straight to the socket") {
  Pair p;
  std::vector<std::string> frames = {"alone"};
  p.write_queue(frames);
  p.io.run();
  CHECK(p.written_out() == 1);
  CHECK(p.read_client() == "alone");
}

TEST_CASE("gather stream: a control frame after gathered frames sends them with it") {
  Pair p;
  std::string frame = "held";
  p.gather().more_follow(true);
  p.server.async_write(net::buffer(frame), [](beast::error_code ec, size_t) { REQUIRE(!ec); });
  p.io.run();
  p.io.restart();
  CHECK(p.written_out() == 0);  // gathered, waiting for the rest of its batch
  // Beast's own ping says nothing about more frames: it flushes the gathered one before it.
  p.server.async_ping({}, [](beast::error_code ec) { REQUIRE(!ec); });
  p.io.run();
  CHECK(p.written_out() == 1);
  bool pinged = false;
  p.client.control_callback([&](websocket::frame_type kind, beast::string_view) {
    pinged = pinged || kind == websocket::frame_type::ping;
  });
  CHECK(p.read_client() == "held");
  p.gather().more_follow(false);
  std::string last = "after";
  p.server.async_write(net::buffer(last), [](beast::error_code ec, size_t) { REQUIRE(!ec); });
  p.io.run();
  CHECK(p.read_client() == "after");
  CHECK(pinged);
}

TEST_CASE("gather stream: the pending bytes are bounded") {
  Pair p;
  // Frames that together pass the bound: the one that passes it waits for the socket.
  const size_t size = GatherStream<beast::tcp_stream>::kMaxPending / 3;
  std::vector<std::string> frames(5, std::string(size, 'b'));
  p.write_queue(frames);
  // The client reads concurrently, so that the socket's buffer never blocks the writes.
  std::vector<std::string> got;
  std::thread reader([&] {
    for (size_t i = 0; i < frames.size(); ++i) got.push_back(p.read_client());
  });
  p.io.run();
  reader.join();
  CHECK(got == frames);
  CHECK(p.written_out() == 2);  // the first write ends with the frame past the bound
}
