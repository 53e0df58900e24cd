#include "ws_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <stdexcept>

namespace duelhall::cli {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

WsClient::WsClient(const std::string& host, const std::string& port, const std::string& path)
    : ws_(io_) {
  net::ip::tcp::resolver resolver(io_);
  net::connect(ws_.next_layer(), resolver.resolve(host, port));
  ws_.handshake(host + ":" + port, path);
  ws_.binary(true);
}

WsClient::~WsClient() {
  beast::error_code ignored;
  if (ws_.is_open()) ws_.close(websocket::close_code::normal, ignored);
}

uint64_t WsClient::send(ClientMessage message) {
  const uint64_t id = next_request_++;
  message.set_request_id(id);
  const std::string bytes = message.SerializeAsString();
  ws_.write(net::buffer(bytes));
  return id;
}

ServerMessage WsClient::request(ClientMessage message) {
  const uint64_t id = send(std::move(message));
  while (true) {
    std::optional<ServerMessage> m = read_one();
    if (!m) throw std::runtime_error("the server closed the connection: " + close_reason_);
    if (m->request_id() == id) return *m;
    pushed_.push_back(std::move(*m));
  }
}

std::optional<ServerMessage> WsClient::next() {
  if (!pushed_.empty()) {
    ServerMessage m = std::move(pushed_.front());
    pushed_.pop_front();
    return m;
  }
  return read_one();
}

std::optional<ServerMessage> WsClient::read_one() {
  beast::error_code ec;
  buffer_.clear();
  ws_.read(buffer_, ec);
  if (ec) {
    close_reason_ = ws_.reason().reason.empty() ? ec.message() : std::string(ws_.reason().reason);
    return std::nullopt;
  }
  ServerMessage m;
  const auto data = buffer_.cdata();
  if (!m.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
    throw std::runtime_error("the server sent a frame that is not a ServerMessage");
  }
  return m;
}

}  // namespace duelhall::cli
