// Behind a reverse proxy (--trusted-proxy): the per-address connection cap counts the client
// named by a trusted peer's X-Forwarded-For, and a header from a peer that is not trusted is
// ignored, so a client cannot dodge the cap by writing one.
#include <boost/beast/websocket.hpp>
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

using RawWs = boost::beast::websocket::stream<boost::beast::tcp_stream>;

struct Connections {
  boost::asio::io_context io;
  std::vector<std::unique_ptr<RawWs>> open;

  // Opens /ws with this X-Forwarded-For; false when the server refuses the connection.
  bool open_as(uint16_t port, const std::string& forwarded_for) {
    auto ws = std::make_unique<RawWs>(io);
    try {
      // From 127.0.0.2, so that the harness's own probes (from 127.0.0.1) count elsewhere.
      auto& socket = ws->next_layer().socket();
      socket.open(boost::asio::ip::tcp::v4());
      socket.bind({boost::asio::ip::make_address("127.0.0.2"), 0});
      ws->next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), port});
      ws->set_option(boost::beast::websocket::stream_base::decorator(
          [forwarded_for](boost::beast::websocket::request_type& req) {
            req.set("X-Forwarded-For", forwarded_for);
          }));
      ws->handshake("127.0.0.1", "/ws");
    } catch (const std::exception&) {
      return false;
    }
    open.push_back(std::move(ws));
    return true;
  }
};

}  // namespace

TEST_CASE("trusted proxy: the per-address cap counts the client named in X-Forwarded-For") {
  ServerProcess server({"--storage", "memory", "--max-connections-per-ip", "2", "--trusted-proxy",
                        "127.0.0.0/8", "--trusted-proxy", "fd00::/8"});
  Connections c;
  // Through the proxy (loopback), three clients: the proxy itself is not held to the cap.
  CHECK(c.open_as(server.port(), "203.0.113.1"));
  CHECK(c.open_as(server.port(), "203.0.113.2"));
  CHECK(c.open_as(server.port(), "2001:db8::7"));
  // The right-most address that is not a trusted proxy is the client's: a chain through a
  // second trusted proxy (fd00::1) still names 203.0.113.1, now at its cap of two.
  CHECK(c.open_as(server.port(), "198.51.100.9, 203.0.113.1, fd00::1"));
  CHECK_FALSE(c.open_as(server.port(), "203.0.113.1"));
  CHECK(c.open_as(server.port(), "2001:db8::7"));
  CHECK_FALSE(c.open_as(server.port(), "2001:db8::7"));
  CHECK(server.alive());
}

TEST_CASE("trusted proxy: X-Forwarded-For from a peer that is not trusted is ignored") {
  // Only 10.0.0.0/8 is a proxy; the test connects from 127.0.0.2.
  ServerProcess server(
      {"--storage", "memory", "--max-connections-per-ip", "2", "--trusted-proxy", "10.0.0.0/8"});
  Connections c;
  CHECK(c.open_as(server.port(), "203.0.113.1"));
  CHECK(c.open_as(server.port(), "203.0.113.2"));
  // A third "client" from the same peer: the spoofed header does not make it someone else.
  CHECK_FALSE(c.open_as(server.port(), "203.0.113.3"));
  CHECK(server.alive());
}

TEST_CASE("trusted proxy: a bad CIDR stops the start with the reason") {
  const auto data = temp_data_dir("proxy-bad");
  const ExitResult r = run_to_exit(
      {"--data", data.string(), "--storage", "memory", "--trusted-proxy", "10.0.0.0/33"});
  CHECK(r.status == 1);
  CHECK(r.output.find("bad --trusted-proxy: '10.0.0.0/33' has a bad prefix length") !=
        std::string::npos);
  std::error_code ec;
  std::filesystem::remove_all(data, ec);
}
