// The TLS server context (OpenSSL through Boost.Asio, used by Beast's ssl_stream): modern
// defaults (TLS 1.2 and later, no compression, the server's cipher order, forward-secret AEAD
// suites for TLS 1.2) and the certificate chain and key from PEM files. reload() builds a new
// context from the same files (on SIGHUP): connections made from then on use it, those already
// open keep the one they were made with, which each holds through its shared_ptr.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <mutex>
#include <string>

namespace duelhall::server {

class TlsContext {
 public:
  // Throws std::runtime_error naming the file and OpenSSL's reason when a file cannot be used
  // (missing, not PEM, a key that does not match the certificate).
  TlsContext(std::string cert_file, std::string key_file);
  // A fresh context from the files; false with `error` (the current one stays) when they fail.
  bool reload(std::string& error);
  std::shared_ptr<boost::asio::ssl::context> current();

 private:
  std::shared_ptr<boost::asio::ssl::context> build() const;

  const std::string cert_file_;
  const std::string key_file_;
  std::mutex mutex_;  // taken once per accepted connection and on reload
  std::shared_ptr<boost::asio::ssl::context> current_;
};

}  // namespace duelhall::server
