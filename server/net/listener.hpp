// Accepts TCP connections, admits them under the connection caps, and hands each to an
// HttpSession on its own strand.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <memory>

#include "net/http_session.hpp"

namespace duelhall::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& io, HttpContext& context);
  // Binds and listens; false with `error` when the address cannot be used.
  bool open(const boost::asio::ip::tcp::endpoint& endpoint, std::string& error);
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void run() { do_accept(); }
  // Stops accepting (the drain's end); connections already open are not touched. The acceptor
  // is closed on its own strand, where its accepts run: closing it from another thread raced
  // with a pending accept (ThreadSanitizer, server integration's drain tests).
  void close() {
    boost::asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
      boost::beast::error_code ec;
      self->acceptor_.close(ec);
    });
  }

 private:
  void do_accept();
  void on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  HttpContext& context_;
};

}  // namespace duelhall::server
