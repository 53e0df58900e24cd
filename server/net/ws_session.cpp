#include "net/ws_session.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "metrics/log_field.hpp"
#include "metrics/server_metrics.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using StrandExecutor = net::strand<net::io_context::executor_type>;

// Malformed messages in a row that end the connection.
constexpr uint32_t kMaxMalformed = 16;
// More than twice the messages a second allowed refused within this window closes the connection.
constexpr std::chrono::seconds kStrikeWindow{2};
// How long a closing connection may take to flush its close frame and finish the handshake.
constexpr auto kCloseDrain = std::chrono::seconds(10);
// Messages are read in pieces of at most this: Beast prepares the whole piece in the read
// buffer while the read waits, which is most of a connection's life, and actions are a few dozen
// bytes (a larger message takes several pieces; on_read reads on until it is done).
constexpr size_t kReadPiece = 256;

std::string close_frame_reason(std::string_view reason) {
  // A close frame's reason holds at most 123 bytes (Beast throws on more), and must be UTF-8:
  // cut before the character that would cross the limit, never inside one.
  constexpr size_t kMax = 123;
  if (reason.size() <= kMax) return std::string(reason);
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(reason[cut]) & 0xC0) == 0x80) --cut;
  return std::string(reason.substr(0, cut));
}

template <class Stream>
WsSession<Stream>::WsSession(Stream&& stream, StreamContext stream_context, Gateway& hub,
                             std::shared_ptr<LiveSessions> live, ConnectionSlot slot)
    : stream_context_(std::move(stream_context)),
      ws_(GatherStream<typename WsLayer<Stream>::type>(WsLayer<Stream>::from(std::move(stream)))),
      close_timer_(ws_.get_executor()),
      hub_(hub),
      live_(std::move(live)),
      slot_(std::move(slot)),
      handler_(hub.open_session(slot_.ip())),
      limiter_(hub.config().limits.messages_per_second,
               2.0 * hub.config().limits.messages_per_second),
      opened_(std::chrono::steady_clock::now()),
      open_(metrics::server_metrics().websockets) {}

template <class Stream>
WsSession<Stream>::~WsSession() {
  live_->remove(slot_.id());
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_);
  spdlog::info("connection {} from {} closed after {:.1f} s, {} frames in, {} out, player {}: {}",
               slot_.id(), slot_.ip(), seconds.count(), frames_in_, frames_out_,
               handler_->player_id(),
               end_reason_.empty() ? "closed" : metrics::log_field(end_reason_));
}

template <class Stream>
bool WsSession<Stream>::on_strand() {
  // get_executor() returns a copy and target() points into it: the copy must outlive the check
  // (a temporary here was a stack-use-after-scope on every send, found by ASan).
  const auto executor = ws_.get_executor();
  auto* strand = executor.template target<StrandExecutor>();
  return strand && strand->running_in_this_thread();
}

template <class Stream>
void WsSession<Stream>::run(beast::http::request<beast::http::string_body> request) {
  const Limits& limits = hub_.config().limits;
  live_->add(slot_.id(), this->weak_from_this());
  if constexpr (kIsTls<Stream>) beast::get_lowest_layer(ws_).expires_never();
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(limits.read_timeout_seconds);
  timeouts.idle_timeout = std::chrono::seconds(limits.idle_timeout_seconds);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  // Beast refuses a frame whose header announces more than this (1009, at once, before any of
  // its payload); do_read enforces it too, with a reason, for a message sent in small frames.
  ws_.read_message_max(limits.max_message_bytes);
  ws_.auto_fragment(false);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(beast::http::field::server, "duelhall"); }));
  ws_.async_accept(request,
                   beast::bind_front_handler(&WsSession::on_accept, this->shared_from_this()));
}

template <class Stream>
void WsSession<Stream>::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  ws_.binary(true);
  do_read();
}

template <class Stream>
void WsSession<Stream>::do_read() {
  const size_t room =
      std::min(kReadPiece, hub_.config().limits.max_message_bytes + 1 - buffer_.size());
  ws_.async_read_some(buffer_, room,
                      beast::bind_front_handler(&WsSession::on_read, this->shared_from_this()));
}

template <class Stream>
void WsSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "read");
  const uint32_t max = hub_.config().limits.max_message_bytes;
  if (buffer_.size() > max) {
    buffer_.consume(buffer_.size());
    return do_close(websocket::close_code::too_big,
                    "FRAME_TOO_LARGE: a message is at most " + std::to_string(max) + " bytes");
  }
  if (!ws_.is_message_done()) return do_read();
  ++frames_in_;
  handle_frame();
  buffer_.consume(buffer_.size());
  if (buffer_.capacity() > 4 * kReadPiece) buffer_.shrink_to_fit();  // after a large message
  if (closing_) return;
  if (queue_.size() >= std::max<size_t>(1, hub_.config().limits.write_queue / 2)) {
    read_paused_ = true;  // on_write reads on once the client has taken some frames
    return;
  }
  do_read();
}

template <class Stream>
void WsSession<Stream>::reply_problem(ResultCode code, const std::string& reason) {
  on_send(frame_of(reply(0, code, reason)));
}

template <class Stream>
void WsSession<Stream>::handle_frame() {
  if (!ws_.got_binary()) {
    return do_close(websocket::close_code::protocol_error, "MALFORMED_FRAME: binary frames only");
  }
  ClientMessage message;
  const auto data = buffer_.cdata();
  const bool parsed = message.ParseFromArray(data.data(), static_cast<int>(data.size()));
  if (!limiter_.allow()) {
    metrics::server_metrics().rate_limited.add();
    // Refusals are counted over a window, not in a row: a flood the server reads more slowly
    // than it comes gets a message through now and then as the limiter refills, and would
    // otherwise never be closed while each refusal still costs a parse and a reply.
    const auto now = std::chrono::steady_clock::now();
    if (now - strikes_since_ > kStrikeWindow) {
      strikes_since_ = now;
      strikes_ = 0;
    }
    if (++strikes_ > 2 * hub_.config().limits.messages_per_second) {
      return do_close(websocket::close_code::policy_error, "RATE_LIMITED: flooding");
    }
    ServerMessage m = reply(parsed ? message.request_id() : 0, RATE_LIMITED,
                            "too many messages; this one was dropped");
    on_send(frame_of(m));
    return;
  }
  if (!parsed) {
    if (++malformed_ > kMaxMalformed) {
      return do_close(websocket::close_code::policy_error, "MALFORMED_FRAME: too many");
    }
    return reply_problem(MALFORMED_FRAME, "the frame is not a ClientMessage");
  }
  malformed_ = 0;
  Outbox out;
  try {
    handler_->dispatch(this->shared_from_this(), message, out);
  } catch (const std::exception& e) {
    // A fault outside any match (the lobby, the hub): this command fails, nothing else.
    spdlog::error("connection {}: command failed: {}", slot_.id(), e.what());
    out = Outbox();
    out.add(this->shared_from_this(), frame_of(reply(message.request_id(), INTERNAL_ERROR,
                                                     "the server could not carry this out")));
  }
  out.flush();
}

template <class Stream>
void WsSession<Stream>::send(Frame frame) {
  if (on_strand()) return on_send(std::move(frame));
  net::post(ws_.get_executor(),
            [self = this->shared_from_this(), frame = std::move(frame)]() mutable {
              self->on_send(std::move(frame));
            });
}

template <class Stream>
void WsSession<Stream>::send_all(std::vector<Frame> frames) {
  auto queue_all = [self = this->shared_from_this(), frames = std::move(frames)]() mutable {
    // Queued before the first is written, so the write gathers them all (gather_stream.hpp).
    const bool idle = self->queue_.empty();
    if (idle) ++self->batching_;
    for (Frame& frame : frames) self->on_send(std::move(frame));
    // A close decided meanwhile (a slow consumer) waits for what was queued before it.
    if (idle && --self->batching_ == 0 && !self->queue_.empty()) self->do_write();
  };
  if (on_strand()) return queue_all();
  net::post(ws_.get_executor(), std::move(queue_all));
}

template <class Stream>
void WsSession<Stream>::on_send(Frame frame) {
  if (closing_ || gone_) return;
  if (queue_.size() >= hub_.config().limits.write_queue) {
    // A slow consumer: dropping its frames protects the server's memory and everyone else.
    metrics::server_metrics().slow_consumers.add();
    // The front frame belongs to the write in flight until on_write pops it; freeing it here
    // would leave that write's buffer dangling and on_write popping an empty queue.
    if (!queue_.empty()) queue_.resize(1);
    return do_close(websocket::close_code::policy_error,
                    "SLOW_CONSUMER: too slow to read its updates");
  }
  queue_.push_back(std::move(frame));
  if (queue_.size() == 1 && batching_ == 0) do_write();
}

template <class Stream>
void WsSession<Stream>::do_write() {
  ws_.next_layer().more_follow(queue_.size() > 1);
  ws_.async_write(net::buffer(*queue_.front()),
                  beast::bind_front_handler(&WsSession::on_write, this->shared_from_this()));
}

template <class Stream>
void WsSession<Stream>::on_write(beast::error_code ec, std::size_t bytes) {
  if (ec) return fail(ec, "write");
  ++frames_out_;
  metrics::server_metrics().frames_out.add();
  metrics::server_metrics().bytes_out.add(bytes);
  queue_.pop_front();
  if (read_paused_ && !closing_ &&
      queue_.size() < std::max<size_t>(1, hub_.config().limits.write_queue / 2)) {
    read_paused_ = false;
    do_read();
  }
  if (!queue_.empty()) return do_write();
  if (close_after_queue_) send_close_frame();
}

template <class Stream>
void WsSession<Stream>::close(const std::string& reason) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), reason] {
    self->do_close(websocket::close_code::policy_error, reason);
  });
}

template <class Stream>
void WsSession<Stream>::post(std::function<void()> work) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), work = std::move(work)] {
    if (!self->gone_) work();
  });
}

template <class Stream>
void WsSession<Stream>::close_to_reconnect(const std::string& reason) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), reason] {
    self->do_close(websocket::close_code::service_restart, reason);
  });
}

template <class Stream>
void WsSession<Stream>::going_away(Frame notice, const std::string& reason) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), notice, reason] {
    self->on_send(notice);
    self->do_close(websocket::close_code::service_restart, reason);
  });
}

template <class Stream>
void WsSession<Stream>::do_close(websocket::close_code code, const std::string& reason) {
  if (closing_) return;
  closing_ = true;
  end_reason_ = reason;
  // What was queued before the close (replies saying why, such as RATE_LIMITED) still goes
  // out: the queue is bounded, and nothing new joins it once closing_ is set.
  close_after_queue_ = true;
  close_code_ = code;
  arm_close_timer();
  if (queue_.empty()) send_close_frame();
}

template <class Stream>
void WsSession<Stream>::arm_close_timer() {
  close_timer_.expires_after(kCloseDrain);
  close_timer_.async_wait([weak = this->weak_from_this()](beast::error_code ec) {
    auto self = weak.lock();
    if (ec || !self) return;
    beast::error_code ignored;
    socket_of(beast::get_lowest_layer(self->ws_)).close(ignored);
  });
}

template <class Stream>
void WsSession<Stream>::send_close_frame() {
  close_after_queue_ = false;
  ws_.async_close(websocket::close_reason(close_code_, close_frame_reason(end_reason_)),
                  [self = this->shared_from_this()](beast::error_code) {});
}

template <class Stream>
void WsSession<Stream>::fail(beast::error_code ec, const char* what) {
  if (!gone_) {
    gone_ = true;
    handler_->disconnected(this);
  }
  if (ec == websocket::error::message_too_big) {
    end_reason_ = "FRAME_TOO_LARGE: frame over the limit";
    return;
  }
  if (ec == net::error::operation_aborted || ec == websocket::error::closed) return;
  if (end_reason_.empty()) end_reason_ = std::string(what) + ": " + ec.message();
}

template class WsSession<PlainStream>;
template class WsSession<TlsStream>;

}  // namespace duelhall::server
