#include "net/listener.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/strand.hpp>

#include "metrics/server_metrics.hpp"

namespace duelhall::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

Listener::Listener(net::io_context& io, HttpContext& context)
    : io_(io), acceptor_(net::make_strand(io)), context_(context) {}

bool Listener::open(const tcp::endpoint& endpoint, std::string& error) {
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) error = ec.message();
  return !ec;
}

void Listener::do_accept() {
  acceptor_.async_accept(net::make_strand(io_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec) {
    // Out of file descriptors and the like: keep accepting, the condition may pass.
    if (ec != net::error::operation_aborted) spdlog::warn("accept: {}", ec.message());
  } else {
    beast::error_code remote_ec;
    const auto remote = socket.remote_endpoint(remote_ec);
    const std::string ip =
        remote_ec ? std::string("?") : plain_address(remote.address()).to_string();
    const bool proxy = !remote_ec && context_.proxies.trusts(remote.address());
    if (auto slot = context_.connections->admit(ip, !proxy)) {
      socket.set_option(tcp::no_delay(true), remote_ec);
      if (context_.tls) {
        auto tls = context_.tls->current();
        TlsStream stream(PlainStream(std::move(socket)), *tls);
        std::make_shared<HttpSession<TlsStream>>(std::move(stream), std::move(tls), context_,
                                                 std::move(*slot))
            ->run();
      } else {
        std::make_shared<HttpSession<PlainStream>>(PlainStream(std::move(socket)), nullptr,
                                                   context_, std::move(*slot))
            ->run();
      }
    } else {
      metrics::server_metrics().connections_refused.add();
      spdlog::warn("connection from {} refused: connection limit reached", ip);
      socket.close(remote_ec);
    }
  }
  if (acceptor_.is_open()) do_accept();
}

}  // namespace duelhall::server
