// The lobby's side of the edge's Gateway (net/gateway.hpp): each WebSocket connection gets a
// handler holding its ClientState and passing its messages to the Dispatcher; HTTP requests for
// a match's export are answered from the hub.
#pragma once

#include <memory>

#include "lobby/dispatch.hpp"
#include "lobby/hub.hpp"
#include "net/gateway.hpp"

namespace duelhall::server {

class LobbyGateway final : public Gateway {
 public:
  LobbyGateway(Hub& hub, Dispatcher& dispatcher) : hub_(hub), dispatcher_(dispatcher) {}

  const Config& config() const override { return hub_.config(); }
  std::unique_ptr<SessionHandler> open_session(const std::string& address) override;
  std::optional<boost::beast::http::message_generator> answer(
      const boost::beast::http::request<boost::beast::http::string_body>& request) override;
  size_t match_count() override { return hub_.match_count(); }
  // A banned address's WebSocket upgrade gets 403 with the ban's reason and expiry as JSON;
  // GET /api/ban tells any client whether its own address is banned (a browser cannot read the
  // body of a refused upgrade).
  std::optional<boost::beast::http::message_generator> screen(
      const boost::beast::http::request<boost::beast::http::string_body>& request,
      const std::string& address) override;

 private:
  Hub& hub_;
  Dispatcher& dispatcher_;
};

}  // namespace duelhall::server
