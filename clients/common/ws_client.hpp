// A small synchronous client for the Duelhall protocol over a real WebSocket: connect, send
// commands, wait for replies, and follow match views through a MatchTracker. One read is always
// in flight, so waiting with a timeout never disturbs the stream. Not thread-safe: one thread
// drives one client.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>

#include "envelope.pb.h"
#include "match_tracker.hpp"

namespace duelhall::client {

class ConnectionClosed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class WsClient {
 public:
  using Millis = std::chrono::milliseconds;
  WsClient();
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // How long connect() waits for the address, the TCP connection and the WebSocket handshake
  // together: a server that is paused (SIGSTOP) still completes TCP connections in the kernel,
  // and would otherwise leave the handshake waiting for ever.
  static constexpr Millis kConnectTimeout{5000};

  // Connects to ws://host:port/ws; throws std::runtime_error when it cannot, or when the server
  // has not answered within `timeout`.
  void connect(const std::string& host, uint16_t port, const std::string& path = "/ws",
               Millis timeout = kConnectTimeout);
  void close();
  bool is_open() const { return open_; }
  // A header the next connect()'s handshake sends (tests: X-Forwarded-For behind a proxy).
  void set_handshake_header(const std::string& name, const std::string& value);
  // Where connect() went: the node a client that lost its connection comes back to.
  const std::string& host() const { return host_; }
  uint16_t port() const { return port_; }
  const std::string& path() const { return path_; }
  // Why the server closed the connection (WebSocket close code and reason), once it did.
  uint16_t close_code() const { return close_code_; }
  const std::string& close_reason() const { return close_reason_; }

  // Sends a command; assigns the next request id when it has none. Returns the request id.
  uint64_t send(ClientMessage message);
  // Sends arbitrary bytes as one binary (or text) frame: for tests of bad input.
  void send_raw(const std::string& bytes, bool text = false);

  // The next message from the server (also applied to the tracker), or nullopt after `timeout`.
  // Throws ConnectionClosed when the connection has ended and nothing is left to read.
  std::optional<ServerMessage> receive(Millis timeout);
  // Sends and returns the reply to it; messages received meanwhile are kept in pushed().
  ServerMessage request(ClientMessage message, Millis timeout = Millis(10'000));
  // Reads (keeping messages in pushed()) until `done()` holds; false on timeout.
  bool wait_until(const std::function<bool()>& done, Millis timeout = Millis(10'000));

  // The protocol version the next hello() and resume() announce (docs/protocol.md).
  void set_protocol(uint32_t version) { protocol_ = version; }
  // Hello with a new name, or a resume token with cursors for the matches it follows.
  ServerMessage hello(const std::string& name);
  ServerMessage resume(const std::string& token);

  MatchTracker& tracker() { return tracker_; }
  std::deque<ServerMessage>& pushed() { return pushed_; }
  // Every frame received, when recording (for tests that scan bytes).
  void record_frames(bool on) { record_ = on; }
  const std::vector<std::string>& frames() const { return frames_; }

 private:
  void start_read();
  void write(const std::string& bytes, bool text);

  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
  boost::beast::flat_buffer buffer_;
  std::deque<ServerMessage> inbox_;
  std::deque<ServerMessage> pushed_;
  MatchTracker tracker_;
  uint32_t protocol_ = 1;
  std::string host_;
  uint16_t port_ = 0;
  std::string path_;
  uint64_t next_request_ = 1;
  bool open_ = false;
  bool reading_ = false;
  uint16_t close_code_ = 0;
  std::string close_reason_;
  bool record_ = false;
  std::vector<std::string> frames_;
};

}  // namespace duelhall::client
