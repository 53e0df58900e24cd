// One WebSocket connection (after Beast's chat-multi and advanced_server examples): its own
// strand, a queue of shared frames with one write in flight, do_x/on_x pairs, and
// shared_from_this for lifetime; the frames queued while the strand ran go out in one write of the
// stream below (net/gather_stream.hpp). A message is read in small pieces, and Beast's
// read_message_max refuses a frame whose header announces more than the limit (close 1009, at
// once, with no payload read or allocated: a header claiming 2^62 bytes does not hold the
// connection open). While the write queue is half full
// nothing more is read, so a client's own replies cannot make it a slow consumer. A close is
// graceful: the close frame follows what was queued, Beast's close reads and discards until the
// client's close frame (bounded by the handshake timeout), and a timer ends a close that never gets
// that far, so the client sees the reason rather than a reset. A template on the byte stream
// (net/streams.hpp), instantiated in ws_session.cpp for each one.
#pragma once

#include <chrono>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/container/devector.hpp>
#include <memory>
#include <string>

#include "metrics/metrics.hpp"
#include "net/connection_limits.hpp"
#include "net/erased_tls.hpp"
#include "net/gateway.hpp"
#include "net/gather_stream.hpp"
#include "net/live_sessions.hpp"
#include "net/peer.hpp"
#include "net/rate_limiter.hpp"
#include "net/streams.hpp"

namespace duelhall::server {

// `reason` cut to fit a close frame (123 bytes), at a UTF-8 character boundary.
std::string close_frame_reason(std::string_view reason);

template <class Stream>
class WsSession : public Peer,
                  public Drainable,
                  public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  WsSession(Stream&& stream, StreamContext stream_context, Gateway& hub,
            std::shared_ptr<LiveSessions> live, ConnectionSlot slot);
  ~WsSession() override;

  void run(boost::beast::http::request<boost::beast::http::string_body> request);
  void send(Frame frame) override;
  void send_all(std::vector<Frame> frames) override;
  void close(const std::string& reason) override;
  void close_to_reconnect(const std::string& reason) override;
  uint64_t peer_id() const override { return slot_.id(); }
  void post(std::function<void()> work) override;
  void going_away(Frame notice, const std::string& reason) override;

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
  void arm_close_timer();
  void send_close_frame();
  void fail(boost::beast::error_code ec, const char* what);
  bool on_strand();

  StreamContext stream_context_;
  // Frames queued behind one another leave in one write of the stream (net/gather_stream.hpp).
  // Without permessage-deflate (false): the server never offers it, and the stream then carries
  // none of its state.
  boost::beast::websocket::stream<GatherStream<typename WsLayer<Stream>::type>, false> ws_;
  boost::beast::flat_buffer buffer_;
  boost::asio::steady_timer close_timer_;
  Gateway& hub_;
  std::shared_ptr<LiveSessions> live_;
  ConnectionSlot slot_;
  std::unique_ptr<SessionHandler> handler_;
  RateLimiter limiter_;
  boost::container::devector<Frame> queue_;  // allocates nothing while empty, unlike std::deque
  uint32_t batching_ = 0;   // send_all is queueing frames: their write starts once all are in
  uint32_t strikes_ = 0;    // rate-limited messages since strikes_since_
  std::chrono::steady_clock::time_point strikes_since_{};
  uint32_t malformed_ = 0;  // malformed frames in a row
  bool closing_ = false;
  bool read_paused_ = false;  // the write queue is half full: the next read waits for it
  // Set while the frames queued before a close still go out; the close frame (its code, and
  // end_reason_ cut to fit) follows them. Not Beast's close_reason, whose 123-byte reason
  // buffer every waiting connection would carry.
  bool close_after_queue_ = false;
  boost::beast::websocket::close_code close_code_ = boost::beast::websocket::close_code::none;
  bool gone_ = false;  // disconnected() has run
  std::string end_reason_;
  std::chrono::steady_clock::time_point opened_;
  uint64_t frames_in_ = 0;
  uint64_t frames_out_ = 0;
  metrics::GaugeHold open_;  // counts this session in the websockets gauge
};

}  // namespace duelhall::server
