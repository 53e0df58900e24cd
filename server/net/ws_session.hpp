// One WebSocket connection (after Beast's chat-multi and advanced_server examples): its own
// strand, a queue of shared frames with one write in flight, do_x/on_x pairs, and
// shared_from_this for lifetime. Frames are read into a buffer capped by read_message_max, so an
// oversized frame is refused before it is allocated.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/container/devector.hpp>
#include <memory>
#include <optional>
#include <string>

#include "net/connection_limits.hpp"
#include "net/gateway.hpp"
#include "net/peer.hpp"
#include "net/rate_limiter.hpp"

namespace duelhall::server {

class WsSession : public Peer, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(boost::beast::tcp_stream&& stream, Gateway& hub, ConnectionSlot slot);
  ~WsSession() override;

  void run(boost::beast::http::request<boost::beast::http::string_body> request);
  void send(Frame frame) override;
  void close(const std::string& reason) override;
  uint64_t peer_id() const override { return slot_.id(); }

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void handle_frame();
  void reply_problem(ResultCode code, const std::string& reason);
  void on_send(Frame frame);
  void do_write();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void do_close(boost::beast::websocket::close_code code, const std::string& reason);
  void send_close_frame();
  void fail(boost::beast::error_code ec, const char* what);
  bool on_strand();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  Gateway& hub_;
  ConnectionSlot slot_;
  std::unique_ptr<SessionHandler> handler_;
  RateLimiter limiter_;
  boost::container::devector<Frame> queue_;  // allocates nothing while empty, unlike std::deque
  uint32_t strikes_ = 0;                     // rate-limited messages in a row
  uint32_t malformed_ = 0;                   // malformed frames in a row
  bool closing_ = false;
  // Set while the frames queued before a close still go out; the close frame follows them.
  std::optional<boost::beast::websocket::close_reason> close_after_queue_;
  bool gone_ = false;  // disconnected() has run
  std::string end_reason_;
  std::chrono::steady_clock::time_point opened_;
  uint64_t frames_in_ = 0;
  uint64_t frames_out_ = 0;
};

}  // namespace duelhall::server
