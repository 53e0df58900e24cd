#include "redirect.hpp"

#include <charconv>

namespace duelhall::client {

std::optional<WsAddress> parse_ws_address(const std::string& url) {
  const std::string scheme = "ws://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  const std::string rest = url.substr(scheme.size());
  const auto slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  WsAddress out;
  if (slash != std::string::npos) out.path = rest.substr(slash);
  const auto colon = authority.rfind(':');
  out.host = authority.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535)
      return std::nullopt;
    out.port = static_cast<uint16_t>(value);
  }
  if (out.host.empty()) return std::nullopt;
  return out;
}

ServerMessage request_following_redirects(std::unique_ptr<WsClient>& client, ClientMessage message,
                                          const std::string& name, uint32_t protocol, int hops,
                                          ServerMessage* welcome) {
  ServerMessage reply = client->request(message);
  for (int hop = 0; hop < hops && reply.result() == REDIRECT && reply.has_redirect(); ++hop) {
    auto address = parse_ws_address(reply.redirect().address());
    if (!address) return reply;
    auto next = std::make_unique<WsClient>();
    next->set_protocol(protocol);
    next->connect(address->host, address->port, address->path);
    ServerMessage greeted = next->hello(name);
    if (greeted.result() != OK) return greeted;
    if (welcome) *welcome = greeted;
    client->close();
    client = std::move(next);
    message.set_ticket(reply.redirect().ticket());
    reply = client->request(message);
  }
  return reply;
}

ServerMessage resume_following_redirects(std::unique_ptr<WsClient>& client,
                                         const std::string& token, uint32_t protocol, int hops) {
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(protocol);
  hello.mutable_hello()->set_resume_token(token);
  for (const auto& [id, match] : client->tracker().matches()) {
    MatchCursor* c = hello.mutable_hello()->add_cursors();
    c->set_match_id(id);
    c->set_seq(match.seq);
  }
  ServerMessage reply = client->request(hello);
  for (int hop = 0; hop < hops && reply.result() == REDIRECT && reply.has_redirect(); ++hop) {
    auto address = parse_ws_address(reply.redirect().address());
    if (!address) return reply;
    auto next = std::make_unique<WsClient>();
    next->set_protocol(protocol);
    next->tracker() = client->tracker();
    next->connect(address->host, address->port, address->path);
    client->close();
    client = std::move(next);
    hello.set_ticket(reply.redirect().ticket());
    reply = client->request(hello);
  }
  return reply;
}

}  // namespace duelhall::client
