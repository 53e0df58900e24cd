// A blocking WebSocket connection to a duelhall server, enough for one terminal user: commands
// are sent with a fresh request id and `request` waits for their reply, keeping the messages the
// server pushes meanwhile (updates, chat, presence) for `next`, in arrival order.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include <optional>
#include <string>

#include "envelope.pb.h"

namespace duelhall::cli {

class WsClient {
 public:
  // Connects and completes the WebSocket handshake on `path`; throws on failure.
  WsClient(const std::string& host, const std::string& port, const std::string& path);
  ~WsClient();

  // Sends `message` with a new request id and returns the server's reply to it.
  ServerMessage request(ClientMessage message);
  // Sends without waiting (the reply arrives through `next`).
  uint64_t send(ClientMessage message);
  // The next pushed message (or a late reply); nullopt when the server closed the connection.
  std::optional<ServerMessage> next();
  // Puts `message` back to be returned first by `next` (a reply that is also the first view).
  void put_back(ServerMessage message) { pushed_.push_front(std::move(message)); }
  // The close reason the server gave, once `next` returned nullopt.
  const std::string& close_reason() const { return close_reason_; }

 private:
  std::optional<ServerMessage> read_one();

  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
  boost::beast::flat_buffer buffer_;
  std::deque<ServerMessage> pushed_;
  uint64_t next_request_ = 1;
  std::string close_reason_;
};

}  // namespace duelhall::cli
