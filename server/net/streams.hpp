// The byte streams a connection runs over. The HTTP and WebSocket sessions are templates on the
// stream (after Beast's advanced_server_flex), so plain and TLS connections share one copy of
// the session code; the few steps that differ (the TLS handshake and shutdown) test kIsTls.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <memory>
#include <type_traits>

namespace duelhall::server {

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
// What a connection's stream was made with and must outlive it: the TLS context (null for a
// plain stream), so that a reload on SIGHUP never frees a context a connection still uses.
using StreamContext = std::shared_ptr<boost::asio::ssl::context>;

template <class Stream>
inline constexpr bool kIsTls = !std::is_same_v<Stream, PlainStream>;

}  // namespace duelhall::server
