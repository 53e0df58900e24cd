// WsClient::connect gives up in bounded time on a server that takes TCP connections but never
// answers the WebSocket handshake: a listening socket that never accepts (the kernel completes
// the TCP handshake for it), and the real server paused with SIGSTOP. duelhall-cli's resume
// (clients/cli/reconnect.cpp) then moves on to the address it started with, as it does for a
// refused connection.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <future>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace duelhall;
using namespace duelhall::testing;
using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

namespace {

// How long a connect that should have given up may take on a loaded machine.
constexpr auto kBound = std::chrono::seconds(20);

// A loopback socket that listens and never accepts; its port.
int silent_listener(uint16_t& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(fd, 16) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  port = ntohs(addr.sin_port);
  return fd;
}

// Connects on another thread: what connect threw ("" when it connected), or nullopt when it had
// not returned within kBound (the caller then unblocks it: a connect without a timeout would
// otherwise hang the test rather than fail it).
struct Attempt {
  std::future<std::string> outcome;
  Clock::time_point started = Clock::now();
};
Attempt attempt(uint16_t port, Millis timeout) {
  Attempt a;
  a.outcome = std::async(std::launch::async, [port, timeout] {
    client::WsClient c;
    try {
      c.connect("127.0.0.1", port, "/ws", timeout);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  });
  return a;
}

}  // namespace

TEST_CASE("connect gives up on a socket that takes the connection and never answers") {
  uint16_t port = 0;
  const int listener = silent_listener(port);
  Attempt a = attempt(port, Millis(500));
  const bool returned = a.outcome.wait_for(kBound) == std::future_status::ready;
  ::close(listener);  // resets the connection it never accepted: a hung connect returns now
  const std::string error = a.outcome.get();
  const auto took = Clock::now() - a.started;
  INFO("connect said: " << error);
  REQUIRE(returned);
  CHECK(error.find("no answer within 500 ms (handshake)") != std::string::npos);
  CHECK(took >= Millis(450));
}

TEST_CASE(
    "connect gives up on a paused server within its default time, and connects once the "
    "server runs again") {
  ServerProcess server;
  server.signal(SIGSTOP);
  Attempt a = attempt(server.port(), client::WsClient::kConnectTimeout);
  const bool returned = a.outcome.wait_for(kBound) == std::future_status::ready;
  server.signal(SIGCONT);  // a hung connect gets its handshake now
  const std::string error = a.outcome.get();
  const auto took = Clock::now() - a.started;
  INFO("connect said: " << error);
  REQUIRE(returned);
  CHECK(error.find("no answer within 5000 ms") != std::string::npos);
  CHECK(took >= client::WsClient::kConnectTimeout - Millis(100));

  client::WsClient c;
  c.connect("127.0.0.1", server.port());
  CHECK(c.hello("back").result() == OK);
}

TEST_CASE("connect to a closed port still fails at once, naming the step") {
  const uint16_t port = free_loopback_port();
  const auto started = Clock::now();
  client::WsClient c;
  try {
    c.connect("127.0.0.1", port);
    FAIL("connected to a closed port");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("connect: Connection refused") != std::string::npos);
  }
  CHECK(Clock::now() - started < std::chrono::seconds(3));
}
