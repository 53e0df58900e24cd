// The byte streams a connection runs over. The HTTP and WebSocket sessions are templates on the
// stream (after Beast's advanced_server_flex), so plain and TLS connections share one copy of
// the session code; the few steps that differ (the TLS handshake and shutdown) test kIsTls.
#pragma once

#include <boost/beast/core/tcp_stream.hpp>
#include <type_traits>

namespace duelhall::server {

using PlainStream = boost::beast::tcp_stream;

template <class Stream>
inline constexpr bool kIsTls = !std::is_same_v<Stream, PlainStream>;

}  // namespace duelhall::server
