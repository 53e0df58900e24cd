#include "ws_session.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "messages.hpp"

namespace duelhall::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using StrandExecutor = net::strand<net::io_context::executor_type>;

// Rate-limited or malformed messages in a row that end the connection.
constexpr uint32_t kMaxMalformed = 16;

WsSession::WsSession(beast::tcp_stream&& stream, Hub& hub, Dispatcher& dispatcher,
                     ConnectionSlot slot)
    : ws_(std::move(stream)),
      hub_(hub),
      dispatcher_(dispatcher),
      slot_(std::move(slot)),
      state_(hub.config().limits),
      limiter_(hub.config().limits.messages_per_second,
               2.0 * hub.config().limits.messages_per_second),
      opened_(std::chrono::steady_clock::now()) {}

WsSession::~WsSession() {
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_);
  spdlog::info("connection {} from {} closed after {:.1f} s, {} frames in, {} out, player {}: {}",
               slot_.id(), slot_.ip(), seconds.count(), frames_in_, frames_out_,
               state_.player ? state_.player->id() : 0,
               end_reason_.empty() ? "closed" : end_reason_);
}

bool WsSession::on_strand() {
  // get_executor() returns a copy and target() points into it: the copy must outlive the check
  // (a temporary here was a stack-use-after-scope on every send, found by ASan).
  const auto executor = ws_.get_executor();
  auto* strand = executor.target<StrandExecutor>();
  return strand && strand->running_in_this_thread();
}

void WsSession::run(beast::http::request<beast::http::string_body> request) {
  const Limits& limits = hub_.config().limits;
  beast::get_lowest_layer(ws_).expires_never();
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(limits.read_timeout_seconds);
  timeouts.idle_timeout = std::chrono::seconds(limits.idle_timeout_seconds);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.read_message_max(limits.max_message_bytes);
  ws_.auto_fragment(false);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(beast::http::field::server, "duelhall"); }));
  ws_.async_accept(request, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
}

void WsSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  ws_.binary(true);
  do_read();
}

void WsSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
}

void WsSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "read");
  ++frames_in_;
  handle_frame();
  buffer_.consume(buffer_.size());
  if (!closing_) do_read();
}

void WsSession::reply_problem(ResultCode code, const std::string& reason) {
  on_send(frame_of(reply(0, code, reason)));
}

void WsSession::handle_frame() {
  if (!ws_.got_binary()) {
    return do_close(websocket::close_code::protocol_error, "MALFORMED_FRAME: binary frames only");
  }
  ClientMessage message;
  const auto data = buffer_.cdata();
  const bool parsed = message.ParseFromArray(data.data(), static_cast<int>(data.size()));
  if (!limiter_.allow()) {
    if (++strikes_ > 2 * hub_.config().limits.messages_per_second) {
      return do_close(websocket::close_code::policy_error, "RATE_LIMITED: flooding");
    }
    ServerMessage m = reply(parsed ? message.request_id() : 0, RATE_LIMITED,
                            "too many messages; this one was dropped");
    on_send(frame_of(m));
    return;
  }
  strikes_ = 0;
  if (!parsed) {
    if (++malformed_ > kMaxMalformed) {
      return do_close(websocket::close_code::policy_error, "MALFORMED_FRAME: too many");
    }
    return reply_problem(MALFORMED_FRAME, "the frame is not a ClientMessage");
  }
  malformed_ = 0;
  Outbox out;
  try {
    dispatcher_.dispatch(shared_from_this(), state_, message, out);
  } catch (const std::exception& e) {
    // A fault outside any match (the lobby, the hub): this command fails, nothing else.
    spdlog::error("connection {}: command failed: {}", slot_.id(), e.what());
    out = Outbox();
    out.add(shared_from_this(), frame_of(reply(message.request_id(), INTERNAL_ERROR,
                                               "the server could not carry this out")));
  }
  out.flush();
}

void WsSession::send(Frame frame) {
  if (on_strand()) return on_send(std::move(frame));
  net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->on_send(std::move(frame));
  });
}

void WsSession::on_send(Frame frame) {
  if (closing_ || gone_) return;
  if (queue_.size() >= hub_.config().limits.write_queue) {
    // A slow consumer: dropping it protects the server's memory and everyone else.
    end_reason_ = "too slow to read its updates";
    closing_ = true;
    // The front frame belongs to the write in flight until on_write pops it; freeing it here
    // would leave that write's buffer dangling and on_write popping an empty queue.
    if (!queue_.empty()) queue_.resize(1);
    beast::get_lowest_layer(ws_).close();
    return;
  }
  queue_.push_back(std::move(frame));
  if (queue_.size() == 1) do_write();
}

void WsSession::do_write() {
  ws_.async_write(net::buffer(*queue_.front()),
                  beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
}

void WsSession::on_write(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "write");
  ++frames_out_;
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (close_after_queue_) send_close_frame();
}

void WsSession::close(const std::string& reason) {
  net::post(ws_.get_executor(), [self = shared_from_this(), reason] {
    self->do_close(websocket::close_code::policy_error, reason);
  });
}

void WsSession::do_close(websocket::close_code code, const std::string& reason) {
  if (closing_) return;
  closing_ = true;
  end_reason_ = reason;
  // What was queued before the close (replies saying why, such as RATE_LIMITED) still goes
  // out: the queue is bounded, and nothing new joins it once closing_ is set.
  close_after_queue_ = websocket::close_reason(code, reason);
  if (queue_.empty()) send_close_frame();
}

void WsSession::send_close_frame() {
  const auto reason = *close_after_queue_;
  close_after_queue_.reset();
  ws_.async_close(reason, [self = shared_from_this()](beast::error_code) {});
}

void WsSession::fail(beast::error_code ec, const char* what) {
  if (!gone_) {
    gone_ = true;
    dispatcher_.disconnected(this, state_);
  }
  if (ec == websocket::error::message_too_big) {
    end_reason_ = "FRAME_TOO_LARGE: frame over the limit";
    return;
  }
  if (ec == net::error::operation_aborted || ec == websocket::error::closed) return;
  if (end_reason_.empty()) end_reason_ = std::string(what) + ": " + ec.message();
}

}  // namespace duelhall::server
