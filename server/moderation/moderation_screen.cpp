// Bans at the door (docs/moderation.md): a banned address is refused its WebSocket upgrade with
// 403 before any Hello, and GET /api/ban answers whether the asking address is banned.
#include <boost/beast/websocket/rfc6455.hpp>

#include "accounts/account_json.hpp"
#include "moderation/moderation_handlers.hpp"
#include "moderation/moderation_service.hpp"

namespace duelhall::server {
namespace {

namespace http = boost::beast::http;

http::message_generator json_response(const http::request<http::string_body>& request,
                                      http::status status, std::string body) {
  http::response<http::string_body> response{status, request.version()};
  response.set(http::field::server, "duelhall");
  response.set(http::field::content_type, "application/json");
  response.set(http::field::cache_control, "no-store");
  response.keep_alive(request.keep_alive() && status == http::status::ok);
  if (request.method() != http::verb::head) response.body() = std::move(body);
  response.prepare_payload();
  return http::message_generator(std::move(response));
}

std::string ban_json(const accounts::Sanction& ban) {
  return "{\"error\":\"BANNED\",\"banned\":true,\"reason\":" +
         accounts::json_string(accounts::describe(ban)) +
         ",\"ban_reason\":" + accounts::json_string(ban.reason) +
         ",\"expires_ms\":" + std::to_string(ban.expires_ms) + "}";
}

}  // namespace

std::optional<http::message_generator> screen_banned(
    ModerationHost& hub, const http::request<http::string_body>& request,
    const std::string& address) {
  auto* moderation = hub.moderation();
  if (!moderation) return std::nullopt;
  const std::string_view target = request.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/api/ban") {
    const auto ban = moderation->address_ban(address);
    return json_response(request, http::status::ok, ban ? ban_json(*ban) : "{\"banned\":false}");
  }
  if (path != "/ws" || !boost::beast::websocket::is_upgrade(request)) return std::nullopt;
  const auto ban = moderation->address_ban(address);
  if (!ban) return std::nullopt;
  return json_response(request, http::status::forbidden, ban_json(*ban));
}

}  // namespace duelhall::server
