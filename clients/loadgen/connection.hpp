// One asynchronous WebSocket connection to the server, after Beast's async client examples: a
// queue of serialized frames with one write in flight, one read always pending. Everything runs
// on the one thread of its io_context, so no strand is needed.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "envelope.pb.h"

namespace duelhall::loadgen {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `frame_bytes` is the size of the frame the message came in.
  using OnMessage = std::function<void(const ServerMessage&, size_t frame_bytes)>;
  using OnEvent = std::function<void(const std::string& error)>;  // empty error: success

  explicit Connection(boost::asio::io_context& io);

  // Connects and completes the WebSocket handshake, then calls `on_open` (with an error on
  // failure); messages then go to `on_message` until the connection ends with `on_closed`.
  void open(const boost::asio::ip::tcp::endpoint& endpoint, OnEvent on_open, OnMessage on_message,
            OnEvent on_closed);
  // Serializes and queues `message` with the next request id; returns the id.
  uint64_t send(ClientMessage message);
  void close();
  bool is_open() const { return open_; }

 private:
  void do_read();
  void do_write();
  void fail(const std::string& what, boost::beast::error_code ec);

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool open_ = false;
  uint64_t next_request_ = 1;
  OnMessage on_message_;
  OnEvent on_closed_;
};

}  // namespace duelhall::loadgen
