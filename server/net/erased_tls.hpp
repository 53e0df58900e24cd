// A TLS stream under the WebSocket with one read, one write and one shutdown, each a plain
// function of erased handlers (erased_tls.cpp), so that OpenSSL's composed operations are compiled
// once. Beast's websocket::stream calls its stream's reads and writes with a new handler and
// buffer type at every step of every operation; over Beast's ssl_stream each of those was a
// copy of Asio's TLS state machine, four fifths of the WebSocket session's compile time
// (docs/testing.md). The erased handler keeps the caller's executor (bound outside it as an
// any_io_executor: Asio 1.26's own erased executor cannot be posted to) and allocator, and its
// storage comes from Asio's per-thread recycling allocator.
//
// The same bytes move as through the ssl_stream itself: Asio's TLS read fills the first non-empty
// buffer it is given and nothing more, so a read passes that one; a write passes the first
// kWriteBuffers buffers (a WebSocket frame is two: header and payload), which Beast's ssl_stream
// joins into one TLS record as before; a write of more may write less, as any write_some may.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/container/static_vector.hpp>
#include <cstddef>
#include <utility>

#include "net/streams.hpp"

namespace duelhall::server {

class ErasedTls {
 public:
  using executor_type = TlsStream::executor_type;
  using next_layer_type = TlsStream;
  static constexpr std::size_t kWriteBuffers = 8;
  using WriteBuffers = boost::container::static_vector<boost::asio::const_buffer, kWriteBuffers>;
  template <class Signature>
  using Erased = boost::asio::executor_binder<boost::asio::any_completion_handler<Signature>,
                                              boost::asio::any_io_executor>;
  using IoHandler = Erased<void(boost::beast::error_code, std::size_t)>;
  using ShutdownHandler = Erased<void(boost::beast::error_code)>;

  explicit ErasedTls(TlsStream&& stream) : stream_(std::move(stream)) {}

  executor_type get_executor() noexcept { return stream_.get_executor(); }
  TlsStream& next_layer() noexcept { return stream_; }
  const TlsStream& next_layer() const noexcept { return stream_; }

  template <class MutableBuffers, class Handler>
  auto async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    return boost::asio::async_initiate<Handler, void(boost::beast::error_code, std::size_t)>(
        [this](auto h, const MutableBuffers& b) {
          start_read(first_of(b), erase<IoHandler>(std::move(h)));
        },
        handler, buffers);
  }

  template <class ConstBuffers, class Handler>
  auto async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    return boost::asio::async_initiate<Handler, void(boost::beast::error_code, std::size_t)>(
        [this](auto h, const ConstBuffers& b) {
          start_write(first_few(b), erase<IoHandler>(std::move(h)));
        },
        handler, buffers);
  }

  // The WebSocket's closing handshake ends with the TLS shutdown (Beast's teardown for TLS).
  void start_shutdown(boost::beast::role_type role, ShutdownHandler handler);

  template <class Handler, class Concrete>
  Handler erase(Concrete&& handler) {
    boost::asio::any_io_executor executor =
        boost::asio::get_associated_executor(handler, get_executor());
    return Handler(boost::asio::executor_arg, std::move(executor),
                   typename Handler::target_type(std::forward<Concrete>(handler)));
  }

 private:
  template <class MutableBuffers>
  static boost::asio::mutable_buffer first_of(const MutableBuffers& buffers) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers); ++it) {
      boost::asio::mutable_buffer b(*it);
      if (b.size() > 0) return b;
    }
    return {};
  }
  template <class ConstBuffers>
  static WriteBuffers first_few(const ConstBuffers& buffers) {
    WriteBuffers out;
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers) && out.size() < kWriteBuffers; ++it) {
      boost::asio::const_buffer b(*it);
      if (b.size() > 0) out.push_back(b);
    }
    return out;
  }

  void start_read(boost::asio::mutable_buffer buffer, IoHandler handler);
  void start_write(const WriteBuffers& buffers, IoHandler handler);

  TlsStream stream_;
};

void teardown(boost::beast::role_type role, ErasedTls& stream, boost::beast::error_code& ec);

template <class TeardownHandler>
void async_teardown(boost::beast::role_type role, ErasedTls& stream, TeardownHandler&& handler) {
  stream.start_shutdown(role, stream.erase<ErasedTls::ShutdownHandler>(
                                  std::forward<TeardownHandler>(handler)));
}

template <>
struct WsLayer<TlsStream> {
  using type = ErasedTls;
  static type from(TlsStream&& stream) { return ErasedTls(std::move(stream)); }
};

}  // namespace duelhall::server
