#include "connection.hpp"

#include "match_tracker.hpp"

#include <boost/beast/core/bind_handler.hpp>

namespace duelhall::loadgen {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

Connection::Connection(net::io_context& io) : ws_(io) {}

void Connection::open(const net::ip::tcp::endpoint& endpoint, OnEvent on_open, OnMessage on_message,
                      OnEvent on_closed) {
  on_message_ = std::move(on_message);
  on_closed_ = std::move(on_closed);
  auto self = shared_from_this();
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
  beast::get_lowest_layer(ws_).async_connect(endpoint, [this, self, endpoint,
                                                        on_open](beast::error_code ec) {
    if (ec) return on_open("connect: " + ec.message());
    beast::get_lowest_layer(ws_).expires_never();
    beast::get_lowest_layer(ws_).socket().set_option(net::ip::tcp::no_delay(true));
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    const std::string host = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
    ws_.async_handshake(host, "/ws", [this, self, on_open](beast::error_code hec) {
      if (hec) return on_open("handshake: " + hec.message());
      ws_.binary(true);
      open_ = true;
      on_open({});
      do_read();
    });
  });
}

uint64_t Connection::send(ClientMessage message) {
  const uint64_t id = next_request_++;
  message.set_request_id(id);
  queue_.push_back(message.SerializeAsString());
  if (!writing_ && open_) do_write();
  return id;
}

void Connection::do_write() {
  writing_ = true;
  ws_.async_write(net::buffer(queue_.front()),
                  [this, self = shared_from_this()](beast::error_code ec, std::size_t) {
                    writing_ = false;
                    if (ec) return fail("write", ec);
                    queue_.pop_front();
                    if (!queue_.empty() && open_) do_write();
                  });
}

void Connection::do_read() {
  ws_.async_read(buffer_, [this, self = shared_from_this()](beast::error_code ec, std::size_t n) {
    if (ec) return fail("read", ec);
    ServerMessage message;
    const auto data = buffer_.cdata();
    if (!message.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
      return fail("a frame that is not a ServerMessage", {});
    }
    buffer_.consume(buffer_.size());
    client::normalize_update(message);
    on_message_(message, n);
    if (open_) do_read();
  });
}

void Connection::fail(const std::string& what, beast::error_code ec) {
  if (!open_) return;
  open_ = false;
  std::string reason = what;
  if (ec) reason += ": " + ec.message();
  if (!ws_.reason().reason.empty()) reason += " (" + std::string(ws_.reason().reason.c_str()) + ")";
  if (on_closed_) on_closed_(reason);
}

void Connection::close() {
  if (!open_) return;
  open_ = false;
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace duelhall::loadgen
