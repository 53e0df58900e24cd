// The byte streams a connection runs over. The HTTP and WebSocket sessions are templates on the
// stream (after Beast's advanced_server_flex), so plain and TLS connections share one copy of
// the session code; the few steps that differ (the TLS handshake and shutdown) test kIsTls.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <memory>
#include <type_traits>
#include <utility>

namespace duelhall::server {

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
// What a connection's stream was made with and must outlive it: the TLS context (null for a
// plain stream), so that a reload on SIGHUP never frees a context a connection still uses.
using StreamContext = std::shared_ptr<boost::asio::ssl::context>;

template <class Stream>
inline constexpr bool kIsTls = !std::is_same_v<Stream, PlainStream>;

// What an upgraded WebSocket runs over. A plain connection's is the bare socket: tcp_stream's
// three timers (the WebSocket keeps its own timeouts) and its layer in every pending read cost a
// waiting connection about 600 bytes. A TLS connection's is its stream behind one erased read and
// write (net/erased_tls.hpp, which defines that case): its TLS state cannot move to another.
template <class Stream>
struct WsLayer;
template <>
struct WsLayer<PlainStream> {
  using type = boost::asio::ip::tcp::socket;
  static type from(PlainStream&& stream) { return stream.release_socket(); }
};

// The socket at the bottom of either layer.
inline boost::asio::ip::tcp::socket& socket_of(boost::asio::ip::tcp::socket& socket) {
  return socket;
}
inline boost::asio::ip::tcp::socket& socket_of(PlainStream& stream) { return stream.socket(); }

}  // namespace duelhall::server
