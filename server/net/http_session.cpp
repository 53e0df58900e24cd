#include "net/http_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>
#include <tuple>

#include "net/static_files.hpp"
#include "net/ws_session.hpp"

namespace duelhall::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

constexpr size_t kMaxRequestBytes = 8 * 1024;  // requests are GETs and upgrades

template <class Stream>
HttpSession<Stream>::HttpSession(Stream&& stream, StreamContext stream_context,
                                 HttpContext& context, ConnectionSlot slot)
    : stream_context_(std::move(stream_context)),
      stream_(std::move(stream)),
      context_(context),
      slot_(std::move(slot)) {}

template <class Stream>
void HttpSession<Stream>::run() {
  if constexpr (kIsTls<Stream>) {
    net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
      beast::get_lowest_layer(self->stream_)
          .expires_after(
              std::chrono::seconds(self->context_.hub.config().limits.read_timeout_seconds));
      self->stream_.async_handshake(
          net::ssl::stream_base::server,
          beast::bind_front_handler(&HttpSession::on_handshake, self->shared_from_this()));
    });
  } else {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&HttpSession::do_read, this->shared_from_this()));
  }
}

template <class Stream>
void HttpSession<Stream>::on_handshake(beast::error_code ec) {
  if (ec) return;  // a client that does not speak TLS, or a failed handshake: nothing to answer
  do_read();
}

template <class Stream>
void HttpSession<Stream>::do_read() {
  parser_.emplace();
  parser_->header_limit(kMaxRequestBytes);
  parser_->body_limit(kMaxRequestBytes);
  beast::get_lowest_layer(stream_).expires_after(
      std::chrono::seconds(context_.hub.config().limits.read_timeout_seconds));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
}

template <class Stream>
std::pair<std::string, unsigned> HttpSession<Stream>::admit_client() {
  if (context_.proxies.empty()) return {};
  beast::error_code ec;
  const auto peer = beast::get_lowest_layer(stream_).socket().remote_endpoint(ec);
  if (ec) return {};
  // Every X-Forwarded-For line, in order: a client's own line first would otherwise hide the
  // proxy's.
  std::vector<std::string_view> forwarded;
  auto [first, last] = parser_->get().equal_range("X-Forwarded-For");
  for (auto it = first; it != last; ++it) forwarded.push_back(it->value());
  const auto client = context_.proxies.client_address(peer.address(), forwarded);
  if (!client) return {"X-Forwarded-For names no client address", 400};
  if (!slot_->rehome(*client)) return {"connection limit reached for this address", 503};
  return {};
}

template <class Stream>
void HttpSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec) return do_close();  // end of stream, timeout, or a malformed request
  HealthFigures health{
      context_.hub.match_count(), context_.connections->total(), !context_.draining, {}};
  if (health.ready && !(health.not_ready = context_.hub.not_ready()).empty()) health.ready = false;
  std::tie(health.refusal, health.refusal_status) = admit_client();
  std::optional<http::message_generator> screened;
  if (health.refusal.empty() && (screened = context_.hub.screen(parser_->get(), slot_->ip()))) {
    const bool keep_alive = screened->keep_alive();
    return beast::async_write(
        stream_, std::move(*screened),
        beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(), keep_alive));
  }
  if (health.refusal.empty() && beast::websocket::is_upgrade(parser_->get())) {
    std::string_view target = parser_->get().target();
    if (target.substr(0, target.find('?')) == "/ws") {
      if (context_.draining) {
        health.refusal = "the server is going down for a restart";
      } else {
        std::make_shared<WsSession<Stream>>(std::move(stream_), std::move(stream_context_),
                                            context_.hub, context_.sessions, std::move(*slot_))
            ->run(parser_->release());
        return;
      }
    }
  }
  auto request = parser_->release();
  auto exported = health.refusal.empty() ? context_.hub.answer(request) : std::nullopt;
  http::message_generator msg =
      exported ? std::move(*exported) : answer_http(context_.web_root, health, std::move(request));
  const bool keep_alive = msg.keep_alive();
  beast::async_write(
      stream_, std::move(msg),
      beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(), keep_alive));
}

template <class Stream>
void HttpSession<Stream>::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec || !keep_alive) return do_close();
  do_read();
}

template <class Stream>
void HttpSession<Stream>::do_close() {
  if constexpr (kIsTls<Stream>) {
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
  } else {
    beast::error_code ec;
    beast::get_lowest_layer(stream_).socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
  }
}

template class HttpSession<PlainStream>;
template class HttpSession<TlsStream>;

}  // namespace duelhall::server
