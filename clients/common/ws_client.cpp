#include "ws_client.hpp"

#include "match_tracker.hpp"

#include <boost/asio/connect.hpp>

namespace duelhall::client {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

WsClient::WsClient() : ws_(io_) {}

WsClient::~WsClient() {
  beast::error_code ec;
  if (ws_.next_layer().is_open()) ws_.next_layer().close(ec);
}

void WsClient::set_handshake_header(const std::string& name, const std::string& value) {
  ws_.set_option(beast::websocket::stream_base::decorator(
      [name, value](beast::websocket::request_type& req) { req.set(name, value); }));
}

void WsClient::connect(const std::string& host, uint16_t port, const std::string& path,
                       Millis timeout) {
  host_ = host;
  port_ = port;
  path_ = path;
  // Every step asynchronous, so that one deadline bounds them all.
  tcp::resolver resolver(io_);
  bool done = false;
  beast::error_code result;
  const char* step = "resolve";
  resolver.async_resolve(
      host, std::to_string(port), [&](beast::error_code ec, tcp::resolver::results_type results) {
        if (ec) {
          result = ec;
          done = true;
          return;
        }
        step = "connect";
        net::async_connect(ws_.next_layer(), results,
                           [&](beast::error_code cec, const tcp::endpoint&) {
                             if (cec) {
                               result = cec;
                               done = true;
                               return;
                             }
                             ws_.next_layer().set_option(tcp::no_delay(true));
                             step = "handshake";
                             ws_.async_handshake(host + ":" + std::to_string(port), path,
                                                 [&](beast::error_code hec) {
                                                   result = hec;
                                                   done = true;
                                                 });
                           });
      });
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (io_.stopped()) io_.restart();
  while (!done) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    io_.run_one_for(deadline - now);
  }
  const bool timed_out = !done;
  if (timed_out) {
    // Cancel whatever step is waiting, then let its handler run: it refers to this frame.
    resolver.cancel();
    beast::error_code ignored;
    ws_.next_layer().close(ignored);
    while (!done) {
      if (io_.stopped()) io_.restart();
      io_.run_one();
    }
  }
  if (timed_out || result) {
    beast::error_code ignored;
    if (ws_.next_layer().is_open()) ws_.next_layer().close(ignored);
    const std::string where = host + ":" + std::to_string(port);
    if (timed_out) {
      throw std::runtime_error(where + ": no answer within " + std::to_string(timeout.count()) +
                               " ms (" + step + ")");
    }
    throw std::runtime_error(where + ": " + step + ": " + result.message());
  }
  ws_.binary(true);
  open_ = true;
  start_read();
}

void WsClient::start_read() {
  reading_ = true;
  ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
    reading_ = false;
    if (ec) {
      open_ = false;
      close_code_ = static_cast<uint16_t>(ws_.reason().code);
      close_reason_ = std::string(ws_.reason().reason.c_str());
      if (close_reason_.empty() && close_code_ == 0) close_reason_ = ec.message();
      return;
    }
    const auto data = buffer_.cdata();
    std::string bytes(static_cast<const char*>(data.data()), data.size());
    buffer_.consume(buffer_.size());
    if (record_) frames_.push_back(bytes);
    ServerMessage message;
    if (message.ParseFromString(bytes)) {
      normalize_update(message);
      inbox_.push_back(std::move(message));
    }
    start_read();
  });
}

void WsClient::write(const std::string& bytes, bool text) {
  if (!open_) throw ConnectionClosed("connection closed: " + close_reason_);
  ws_.text(text);
  bool done = false;
  beast::error_code result;
  ws_.async_write(net::buffer(bytes), [&](beast::error_code ec, std::size_t) {
    done = true;
    result = ec;
  });
  while (!done) {
    if (io_.stopped()) io_.restart();
    io_.run_one();
  }
  ws_.binary(true);
  if (result) {
    open_ = false;
    if (close_reason_.empty()) close_reason_ = result.message();
    throw ConnectionClosed("write failed: " + result.message());
  }
}

uint64_t WsClient::send(ClientMessage message) {
  if (message.request_id() == 0) message.set_request_id(next_request_++);
  write(message.SerializeAsString(), false);
  return message.request_id();
}

void WsClient::send_raw(const std::string& bytes, bool text) {
  write(bytes, text);
}

std::optional<ServerMessage> WsClient::receive(Millis timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (inbox_.empty() && reading_) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    if (io_.stopped()) io_.restart();
    io_.run_one_for(deadline - now);
  }
  if (inbox_.empty()) {
    if (!reading_) throw ConnectionClosed("connection closed: " + close_reason_);
    return std::nullopt;
  }
  ServerMessage message = std::move(inbox_.front());
  inbox_.pop_front();
  tracker_.handle(message);
  return message;
}

ServerMessage WsClient::request(ClientMessage message, Millis timeout) {
  const uint64_t id = send(std::move(message));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left =
        std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw std::runtime_error("no reply to request " + std::to_string(id));
    auto reply = receive(left);
    if (!reply) continue;
    if (reply->request_id() == id) return *reply;
    pushed_.push_back(std::move(*reply));
  }
}

bool WsClient::wait_until(const std::function<bool()>& done, Millis timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    const auto left =
        std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    auto message = receive(left);
    if (message) pushed_.push_back(std::move(*message));
  }
  return true;
}

ServerMessage WsClient::hello(const std::string& name) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(protocol_);
  m.mutable_hello()->set_display_name(name);
  return request(std::move(m));
}

ServerMessage WsClient::resume(const std::string& token) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(protocol_);
  m.mutable_hello()->set_resume_token(token);
  for (const auto& [id, match] : tracker_.matches()) {
    MatchCursor* c = m.mutable_hello()->add_cursors();
    c->set_match_id(id);
    c->set_seq(match.seq);
  }
  return request(std::move(m));
}

void WsClient::close() {
  if (!open_) return;
  bool done = false;
  ws_.async_close(beast::websocket::close_code::normal, [&](beast::error_code) { done = true; });
  while (!done && reading_) {
    if (io_.stopped()) io_.restart();
    if (io_.run_one_for(std::chrono::seconds(2)) == 0) break;
  }
  open_ = false;
}

}  // namespace duelhall::client
