// TLS for the integration tests: a self-signed certificate made at test time with the openssl
// command, and small HTTPS and WSS clients that verify the server against it.
#pragma once

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "envelope.pb.h"
#include "server_process.hpp"

namespace duelhall::testing {

struct TestCertificate {
  std::filesystem::path cert;
  std::filesystem::path key;
};

// A fresh self-signed certificate for "localhost" and 127.0.0.1 in `folder`.
inline TestCertificate make_certificate(const std::filesystem::path& folder,
                                        const std::string& name) {
  std::filesystem::create_directories(folder);
  TestCertificate made{folder / (name + "-cert.pem"), folder / (name + "-key.pem")};
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost"
      " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout '" +
      made.key.string() + "' -out '" + made.cert.string() + "' >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("openssl req failed");
  return made;
}

// A client context that trusts only `ca` and checks the server's name.
inline std::shared_ptr<boost::asio::ssl::context> client_context(const std::filesystem::path& ca) {
  auto context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
  context->load_verify_file(ca.string());
  context->set_verify_mode(boost::asio::ssl::verify_peer);
  return context;
}

using TlsClientStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

inline void tls_connect(TlsClientStream& stream, uint16_t port) {
  boost::beast::get_lowest_layer(stream).connect(
      boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  stream.set_verify_callback(boost::asio::ssl::host_name_verification("localhost"));
  SSL_set_tlsext_host_name(stream.native_handle(), "localhost");
  stream.handshake(boost::asio::ssl::stream_base::client);
}

// GET over HTTPS; throws when the connection or the certificate check fails.
inline HttpAnswer https_get(uint16_t port, const std::string& target,
                            const std::filesystem::path& ca) {
  namespace http = boost::beast::http;
  boost::asio::io_context io;
  auto context = client_context(ca);
  TlsClientStream stream(io, *context);
  tls_connect(stream, port);
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "localhost");
  http::write(stream, req);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  boost::beast::error_code ec;
  stream.shutdown(ec);
  return {res.result_int(), res.body()};
}

// A synchronous WebSocket over TLS (wss://localhost:port/ws) speaking the envelope.
class WssClient {
 public:
  WssClient(uint16_t port, const std::filesystem::path& ca)
      : context_(client_context(ca)), ws_(io_, *context_) {
    tls_connect(ws_.next_layer(), port);
    ws_.handshake("localhost:" + std::to_string(port), "/ws");
    ws_.binary(true);
  }
  ServerMessage request(ClientMessage message) {
    const uint64_t id = send(std::move(message));
    while (true) {
      ServerMessage reply = read();
      if (reply.request_id() == id) return reply;
    }
  }
  // Sends without waiting; returns the request id given.
  uint64_t send(ClientMessage message) {
    message.set_request_id(++next_);
    ws_.write(boost::asio::buffer(message.SerializeAsString()));
    return next_;
  }
  ServerMessage read() {
    boost::beast::flat_buffer buffer;
    ws_.read(buffer);
    ServerMessage reply;
    const auto data = buffer.cdata();
    if (!reply.ParseFromArray(data.data(), static_cast<int>(data.size()))) reply.Clear();
    return reply;
  }
  void send_text(const std::string& text) {
    ws_.text(true);
    ws_.write(boost::asio::buffer(text));
    ws_.binary(true);
  }
  // Reads until the server's close frame; its reason, or "" when the connection ended without one.
  std::string read_until_closed() {
    boost::beast::error_code ec;
    while (!ec) {
      boost::beast::flat_buffer buffer;
      ws_.read(buffer, ec);
    }
    return ec == boost::beast::websocket::error::closed ? std::string(ws_.reason().reason.data(), ws_.reason().reason.size())
                                                        : "";
  }

 private:
  boost::asio::io_context io_;
  std::shared_ptr<boost::asio::ssl::context> context_;
  boost::beast::websocket::stream<TlsClientStream> ws_;
  uint64_t next_ = 0;
};

}  // namespace duelhall::testing
