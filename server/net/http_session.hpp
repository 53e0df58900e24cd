// One HTTP connection: static files under the web root, /healthz, and the upgrade to the
// WebSocket at /ws (after Beast's advanced_server example). A template on the byte stream
// (net/streams.hpp), instantiated in http_session.cpp for each one.
#pragma once

#include <atomic>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <optional>

#include "net/connection_limits.hpp"
#include "net/gateway.hpp"
#include "net/live_sessions.hpp"
#include "net/streams.hpp"
#include "net/tls.hpp"
#include "net/trusted_proxies.hpp"

namespace duelhall::server {

struct HttpContext {
  Gateway& hub;
  std::shared_ptr<ConnectionCounter> connections;
  std::string web_root;             // empty or missing: a built-in page
  std::shared_ptr<TlsContext> tls;  // null: plain HTTP and WebSocket
  TrustedProxies proxies;
  // Shared: a session the I/O loop frees after main() has left must still find it.
  std::shared_ptr<LiveSessions> sessions = std::make_shared<LiveSessions>();
  // Set by a drain (SIGTERM): /readyz answers 503 and WebSocket upgrades are refused.
  std::atomic<bool> draining{false};
};

template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(Stream&& stream, StreamContext stream_context, HttpContext& context,
              ConnectionSlot slot);
  void run();

 private:
  void on_handshake(boost::beast::error_code ec);
  // Behind a trusted proxy, moves the slot to the client's address; false at its cap.
  // Names the connection by its client's address (behind a trusted proxy) and takes its slot
  // under that address's cap; the refusal's reason and status, or an empty reason.
  std::pair<std::string, unsigned> admit_client();
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  void do_close();

  StreamContext stream_context_;
  Stream stream_;
  boost::beast::flat_buffer buffer_;
  HttpContext& context_;
  std::optional<ConnectionSlot> slot_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

}  // namespace duelhall::server
