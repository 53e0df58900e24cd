// Following a cluster's redirect (docs/cluster.md): a node answers REDIRECT with another node's
// address and a ticket; the client connects there, says Hello as before and sends the same
// command with the ticket. The player does not notice beyond a new connection.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ws_client.hpp"

namespace duelhall::client {

struct WsAddress {
  std::string host;
  uint16_t port = 80;
  std::string path = "/ws";
};
// "ws://HOST:PORT/PATH" (the port defaults to 80, the path to /ws); nullopt for anything else
// (wss:// too: this client speaks no TLS).
std::optional<WsAddress> parse_ws_address(const std::string& url);

// Sends `message` on `client`; while the answer is REDIRECT (at most `hops` times), connects to
// the node it names, says Hello as `name` in `protocol`, replaces `client` with that connection
// and sends `message` again with the ticket. Returns the last answer (a REDIRECT the client
// cannot follow stays one). `welcome`, when given, gets the Welcome of the node moved to (its
// resume token is the one of the new connection's player).
ServerMessage request_following_redirects(std::unique_ptr<WsClient>& client, ClientMessage message,
                                          const std::string& name, uint32_t protocol = 1,
                                          int hops = 2, ServerMessage* welcome = nullptr);

// Resumes on `client` (connected, with the tracker of the connection that was lost) the
// matches its tracker follows, with the resume token `token`: a Hello with the token and a cursor
// per match. While the answer is REDIRECT (their node died and another adopted them, or they are
// on another node), connects to the node it names, carries the tracker over, says the same Hello
// with the ticket and replaces `client` with that connection. Returns the last answer.
ServerMessage resume_following_redirects(std::unique_ptr<WsClient>& client,
                                         const std::string& token, uint32_t protocol = 1,
                                         int hops = 2);

}  // namespace duelhall::client
