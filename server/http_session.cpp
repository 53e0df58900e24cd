#include "http_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>

#include "accounts/account_json.hpp"
#include "replay_export.hpp"
#include "static_files.hpp"
#include "ws_session.hpp"

namespace duelhall::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

constexpr size_t kMaxRequestBytes = 8 * 1024;  // requests are GETs and upgrades

namespace {

// The accounts' JSON API (server/accounts/account_json.hpp), or nullopt for other paths.
std::optional<http::message_generator> answer_accounts(
    Hub& hub, const http::request<http::string_body>& request) {
  auto answer =
      accounts::answer_accounts_api(hub.accounts(), request.method_string(), request.target(),
                                    request[http::field::authorization]);
  if (!answer) return std::nullopt;
  http::response<http::string_body> response{static_cast<http::status>(answer->status),
                                             request.version()};
  response.set(http::field::server, "duelhall");
  response.set(http::field::content_type, "application/json");
  response.set(http::field::cache_control, "no-store");
  response.keep_alive(request.keep_alive());
  if (request.method() != http::verb::head) response.body() = std::move(answer->body);
  response.prepare_payload();
  return http::message_generator(std::move(response));
}

}  // namespace

HttpSession::HttpSession(net::ip::tcp::socket&& socket, HttpContext& context, ConnectionSlot slot)
    : stream_(std::move(socket)), context_(context), slot_(std::move(slot)) {}

void HttpSession::run() {
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->header_limit(kMaxRequestBytes);
  parser_->body_limit(kMaxRequestBytes);
  stream_.expires_after(std::chrono::seconds(context_.hub.config().limits.read_timeout_seconds));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return do_close();  // end of stream, timeout, or a malformed request
  if (beast::websocket::is_upgrade(parser_->get())) {
    std::string_view target = parser_->get().target();
    if (target.substr(0, target.find('?')) == "/ws") {
      std::make_shared<WsSession>(std::move(stream_), context_.hub, context_.dispatcher,
                                  std::move(*slot_))
          ->run(parser_->release());
      return;
    }
  }
  auto request = parser_->release();
  auto exported = answer_export(context_.hub, request);
  if (!exported) exported = answer_accounts(context_.hub, request);
  HealthFigures health{context_.hub.match_count(), context_.connections->total()};
  http::message_generator msg =
      exported ? std::move(*exported) : answer_http(context_.web_root, health, std::move(request));
  const bool keep_alive = msg.keep_alive();
  beast::async_write(
      stream_, std::move(msg),
      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec || !keep_alive) return do_close();
  do_read();
}

void HttpSession::do_close() {
  beast::error_code ec;
  stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace duelhall::server
