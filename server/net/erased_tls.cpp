#include "net/erased_tls.hpp"

#include <boost/beast/websocket/ssl.hpp>

namespace duelhall::server {

void ErasedTls::start_read(boost::asio::mutable_buffer buffer, IoHandler handler) {
  stream_.async_read_some(buffer, std::move(handler));
}

void ErasedTls::start_write(const WriteBuffers& buffers, IoHandler handler) {
  stream_.async_write_some(buffers, std::move(handler));
}

void ErasedTls::start_shutdown(boost::beast::role_type role, ShutdownHandler handler) {
  using boost::beast::websocket::async_teardown;  // Beast's own for its ssl_stream, by ADL
  async_teardown(role, stream_, std::move(handler));
}

void teardown(boost::beast::role_type role, ErasedTls& stream, boost::beast::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

}  // namespace duelhall::server
