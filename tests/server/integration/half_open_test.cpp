// Half-open and slow peers against the real server: a TCP connection that sends nothing, an
// HTTP/WebSocket handshake sent one byte at a time (slowloris), and a player who stops reading
// mid-match. Each is cut off within the configured timeout (set short here through the flags),
// costs bounded memory while it lasts, and leaves the server serving everyone else.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <fstream>

#include "core/registry.hpp"
#include "helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kTimeoutSeconds = 2;
// How late a cut may come on a loaded machine (or under a sanitizer): timers fire late, never
// early.
constexpr auto kSlack = std::chrono::seconds(10);
// The memory bounds below are for a plain build. A sanitizer's shadow memory (and ASan's
// quarantine of freed blocks) multiplies what each allocation costs the server, which is built
// with the same flags as this test.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr long kMemoryScale = 8;
#else
constexpr long kMemoryScale = 1;
#endif

int open_tcp(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    throw std::runtime_error("cannot connect");
  }
  return fd;
}

// True once the server has closed `fd` (end of stream or reset); reads and drops any data.
bool closed_by_server(int fd) {
  char buffer[4096];
  while (true) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n == 0) return true;
    if (n < 0) return errno != EAGAIN && errno != EWOULDBLOCK;
  }
}

// The server's resident memory in KiB, from /proc.
long rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// Open connections as /healthz counts them (its own request included).
int connections(uint16_t port) {
  const std::string body = http_get(port, "/healthz").body;
  // Read by hand: <regex> makes gcc's sanitizer builds warn inside libstdc++.
  const std::string key = "\"connections\":";
  const size_t at = body.find(key);
  if (at == std::string::npos) return -1;
  const size_t digits = at + key.size();
  if (digits >= body.size() || !std::isdigit(static_cast<unsigned char>(body[digits]))) return -1;
  return std::stoi(body.substr(digits));
}

bool wait_for_connections(uint16_t port, int count, Clock::time_point deadline) {
  while (Clock::now() < deadline) {
    if (connections(port) == count) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// The count when only the /healthz request itself is open: the requests that saw the server
// come up may still be closing on its side.
int quiet_connections(uint16_t port) {
  REQUIRE(wait_for_connections(port, 1, Clock::now() + kSlack));
  return 1;
}

// A client that is served while the peers under test hang on: the server still works.
void served(uint16_t port) {
  auto c = connect_as(port, "Bystander");
  ClientMessage p;
  p.mutable_ping()->set_nonce(5);
  CHECK(c->request(p).pong().nonce() == 5);
}

}  // namespace

TEST_CASE("connections that send nothing are closed after the read timeout, at bounded cost") {
  ServerProcess server({"--read-timeout", std::to_string(kTimeoutSeconds)});
  const int baseline = quiet_connections(server.port());
  const long rss_before = rss_kib(server.pid());
  constexpr int kPeers = 200;
  std::vector<int> fds;
  const auto opened = Clock::now();
  for (int i = 0; i < kPeers; ++i) fds.push_back(open_tcp(server.port()));
  CHECK(wait_for_connections(server.port(), baseline + kPeers, opened + std::chrono::seconds(1)));
  // Each silent connection holds a socket and an empty request parser: a few KiB, never more.
  const long grown = rss_kib(server.pid()) - rss_before;
  INFO("RSS grew by " << grown << " KiB for " << kPeers << " silent connections");
  CHECK(grown < kPeers * 64 * kMemoryScale);
  served(server.port());

  std::vector<Clock::duration> cut(kPeers, Clock::duration::max());
  size_t open = kPeers;
  while (open > 0 && Clock::now() < opened + std::chrono::seconds(kTimeoutSeconds) + kSlack) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (int i = 0; i < kPeers; ++i) {
      if (cut[i] == Clock::duration::max() && closed_by_server(fds[i])) {
        cut[i] = Clock::now() - opened;
        --open;
      }
    }
  }
  CHECK(open == 0);
  for (const auto& when : cut) {
    CHECK(when >= std::chrono::milliseconds(kTimeoutSeconds * 1000 - 200));
    CHECK(when <= std::chrono::seconds(kTimeoutSeconds) + kSlack);
  }
  for (int fd : fds) ::close(fd);
  INFO("connections: " << connections(server.port()) << ", at start " << baseline);
  CHECK(wait_for_connections(server.port(), baseline, Clock::now() + kSlack));
  CHECK(server.alive());
}

TEST_CASE("a WebSocket handshake sent one byte at a time is cut off within the read timeout") {
  ServerProcess server({"--read-timeout", std::to_string(kTimeoutSeconds)});
  const int baseline = quiet_connections(server.port());
  const long rss_before = rss_kib(server.pid());
  const std::string handshake =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  // At 10 bytes a second the handshake would take far longer than the timeout.
  constexpr int kPeers = 50;
  std::vector<int> fds;
  const auto opened = Clock::now();
  for (int i = 0; i < kPeers; ++i) fds.push_back(open_tcp(server.port()));
  std::vector<size_t> sent(kPeers, 0);
  std::vector<Clock::duration> cut(kPeers, Clock::duration::max());
  size_t open = kPeers;
  bool checked_others = false;
  while (open > 0 && Clock::now() < opened + std::chrono::seconds(kTimeoutSeconds) + kSlack) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (int i = 0; i < kPeers; ++i) {
      if (cut[i] != Clock::duration::max()) continue;
      const bool sent_byte =
          sent[i] < handshake.size() && ::send(fds[i], &handshake[sent[i]], 1, MSG_NOSIGNAL) == 1;
      if (sent_byte) ++sent[i];
      if (!sent_byte || closed_by_server(fds[i])) {
        cut[i] = Clock::now() - opened;
        --open;
      }
    }
    if (!checked_others && Clock::now() > opened + std::chrono::seconds(1)) {
      checked_others = true;
      const long grown = rss_kib(server.pid()) - rss_before;
      INFO("RSS grew by " << grown << " KiB for " << kPeers << " slow handshakes");
      CHECK(grown < kPeers * 64 * kMemoryScale);
      served(server.port());
    }
  }
  CHECK(open == 0);
  for (int i = 0; i < kPeers; ++i) {
    CHECK(sent[i] < handshake.size());  // cut off before the handshake was complete
    CHECK(cut[i] <= std::chrono::seconds(kTimeoutSeconds) + kSlack);
  }
  for (int fd : fds) ::close(fd);
  INFO("connections: " << connections(server.port()) << ", at start " << baseline);
  CHECK(wait_for_connections(server.port(), baseline, Clock::now() + kSlack));
  CHECK(server.alive());
}

TEST_CASE("players who stop reading mid-match are cut off by the idle timeout, at bounded cost") {
  ServerProcess server({"--idle-timeout", std::to_string(kTimeoutSeconds)});
  const auto registry = engine::builtin_registry();
  const int baseline = quiet_connections(server.port());
  const long rss_before = rss_kib(server.pid());
  constexpr int kPlayers = 20;
  std::vector<std::unique_ptr<WsClient>> players;
  for (int i = 0; i < kPlayers; ++i) {
    auto& c = players.emplace_back(connect_as(server.port(), "Stalled" + std::to_string(i)));
    const auto& ruleset = registry.all()[i % registry.all().size()].name;
    auto created = c->request(create_match(ruleset, 2, true, 1));
    REQUIRE(created.result() == OK);
    const uint64_t id = created.created().match().match_id();
    // A few actions in, then silence: no reads (so no pongs) and no sends. A bot that decides
    // at the same time may make a view stale: that action is refused and the next one is tried.
    int accepted = 0;
    for (int attempt = 0; attempt < 20 && accepted < 3; ++attempt) {
      REQUIRE(c->wait_until([&] {
        auto* t = c->tracker().find(id);
        return t && (!t->legal.empty() || t->ended);
      }));
      const auto* t = c->tracker().find(id);
      if (t->ended) break;
      const uint64_t seq = t->seq;
      const auto result = c->request(action(id, t->legal.front().code(), seq)).result();
      REQUIRE((result == OK || result == STALE_SEQ));
      if (result == OK) ++accepted;
      c->wait_until([&] { return c->tracker().find(id)->seq > seq; }, std::chrono::seconds(1));
    }
    CHECK(accepted > 0);
  }
  // The last player went silent now; the first ones earlier, and may already be gone.
  const auto stalled = Clock::now();
  const long grown = rss_kib(server.pid()) - rss_before;
  INFO("RSS grew by " << grown << " KiB for " << kPlayers << " stalled players and their matches");
  CHECK(grown < kPlayers * 512 * kMemoryScale);
  served(server.port());

  // Keep-alive pings go unanswered: each connection is closed once the idle timeout has passed.
  CHECK(wait_for_connections(server.port(), baseline,
                             stalled + std::chrono::seconds(kTimeoutSeconds) + kSlack));
  for (size_t i = 0; i < players.size(); ++i) {
    auto& c = players[i];
    INFO("player " << i);
    CHECK_THROWS_AS(c->wait_until([] { return false; }, std::chrono::seconds(5)),
                    client::ConnectionClosed);
  }
  CHECK(server.alive());
}
