// A write-gathering layer under a WebSocket stream: the frames a connection queued while its
// strand ran leave in one system call instead of one each. Beast's websocket::stream writes one
// message per async_write, and writes each one through this layer; the session says, before each
// message, whether more of its frames wait behind it (`more_follow`). Such a write is copied into
// the pending bytes and completes at once (posted, never inline); the next write that has nothing
// behind it (the last queued frame, or any of Beast's own control frames: ping, pong, close)
// sends everything pending with it in one write of the layer below, and completes when that
// write has. A lone frame with nothing pending goes straight to the layer below, without a copy.
//
// Sound because every byte of the connection passes through this layer in the order Beast wrote
// it and at most one write of the layer below is in flight; the pending bytes are bounded
// (kMaxPending: beyond it a write waits for the socket like any other), and an error sending
// gathered frames fails the write that sent them, which ends the connection. Reads pass through.
#pragma once

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <cstddef>
#include <utility>

namespace duelhall::server {

template <class Next>
class GatherStream {
 public:
  using executor_type = typename Next::executor_type;
  using next_layer_type = Next;
  static constexpr std::size_t kMaxPending = 64 * 1024;

  explicit GatherStream(Next&& next) : next_(std::move(next)) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  Next& next_layer() noexcept { return next_; }
  const Next& next_layer() const noexcept { return next_; }

  // Applies to the next write only: more frames of the caller's follow it.
  void more_follow(bool more) { more_ = more; }

  template <class MutableBuffers, class Handler>
  auto async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    return next_.async_read_some(buffers, std::forward<Handler>(handler));
  }

  template <class ConstBuffers, class Handler>
  auto async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    return boost::asio::async_initiate<Handler, void(boost::beast::error_code, std::size_t)>(
        [this](auto h, const ConstBuffers& b) { this->start_write(b, std::move(h)); }, handler,
        buffers);
  }

  // Counters for tests and the benchmark notes: writes accepted, and writes of the layer below.
  std::size_t writes_in() const { return writes_in_; }
  std::size_t writes_out() const { return writes_out_; }

 private:
  // Beast has at most one write of a connection in flight (its write lock), and this layer
  // completes a write only once its bytes are in the layer below or pending: so no write arrives
  // while one of the layer below is in flight, and every such write carries the handler that
  // keeps the connection alive until it completes.
  template <class ConstBuffers, class Handler>
  void start_write(const ConstBuffers& buffers, Handler handler) {
    const bool more = std::exchange(more_, false);
    const std::size_t bytes = boost::asio::buffer_size(buffers);
    ++writes_in_;
    if (!more && pending_.size() == 0) {
      ++writes_out_;  // nothing gathered: the frame goes as it is, without a copy
      next_.async_write_some(buffers, std::move(handler));
      return;
    }
    boost::asio::buffer_copy(pending_.prepare(bytes), buffers);
    pending_.commit(bytes);
    if (more && pending_.size() <= kMaxPending) {
      boost::asio::post(
          next_.get_executor(),
          boost::beast::bind_front_handler(std::move(handler), boost::beast::error_code{}, bytes));
      return;
    }
    // The last of a batch (or over the bound): it completes once everything pending is sent.
    ++writes_out_;
    boost::asio::async_write(next_, pending_.data(),
                             [this, bytes, handler = std::move(handler)](
                                 boost::beast::error_code ec, std::size_t) mutable {
                               // Given back at once: batches come now and then, and a
                               // player waiting between them keeps no copy of the last.
                               pending_.clear();
                               pending_.shrink_to_fit();
                               handler(ec, ec ? 0 : bytes);
                             });
  }

  Next next_;
  boost::beast::flat_buffer pending_;  // written by the caller, not yet by the layer below
  bool more_ = false;
  std::size_t writes_in_ = 0;
  std::size_t writes_out_ = 0;
};

template <class Next>
void teardown(boost::beast::role_type role, GatherStream<Next>& stream,
              boost::beast::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

template <class Next, class TeardownHandler>
void async_teardown(boost::beast::role_type role, GatherStream<Next>& stream,
                    TeardownHandler&& handler) {
  using boost::beast::websocket::async_teardown;
  async_teardown(role, stream.next_layer(), std::forward<TeardownHandler>(handler));
}

}  // namespace duelhall::server
