// What the edge asks of the server behind it, and all it knows of it: the configuration (for its
// limits), a handler per WebSocket connection that takes the connection's well-formed messages,
// and the HTTP answers that are not static files. The lobby implements these
// (lobby/gateway.hpp); net includes nothing of the lobby or the matches.
#pragma once

#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "config/config.hpp"
#include "envelope.pb.h"
#include "net/outbox.hpp"
#include "net/peer.hpp"

namespace duelhall::server {

// One per WebSocket connection, used only on that connection's strand.
class SessionHandler {
 public:
  virtual ~SessionHandler() = default;
  // Handles one message from `peer`; the replies that are ready go to `out`.
  virtual void dispatch(const std::shared_ptr<Peer>& peer, const ClientMessage& message,
                        Outbox& out) = 0;
  // The connection is gone; called once.
  virtual void disconnected(const Peer* peer) = 0;
  // The player on this connection, for the log; 0 when none.
  virtual uint64_t player_id() const = 0;
};

class Gateway {
 public:
  virtual ~Gateway() = default;
  virtual const Config& config() const = 0;
  // A new connection from `address` (its sign-in limits count per address).
  virtual std::unique_ptr<SessionHandler> open_session(const std::string& address) = 0;
  // Answers an HTTP request served by the server itself (such as a match export); nullopt for
  // any other target, which the static files answer.
  virtual std::optional<boost::beast::http::message_generator> answer(
      const boost::beast::http::request<boost::beast::http::string_body>& request) = 0;
  virtual size_t match_count() = 0;
  // Asked before anything else of a request from `address` (the client's, behind a trusted
  // proxy): an answer refuses or serves it here (a banned address's upgrade, 403), nullopt lets
  // it through to the WebSocket upgrade, answer() and the static files.
  virtual std::optional<boost::beast::http::message_generator> screen(
      const boost::beast::http::request<boost::beast::http::string_body>& /*request*/,
      const std::string& /*address*/) {
    return std::nullopt;
  }
};

}  // namespace duelhall::server
