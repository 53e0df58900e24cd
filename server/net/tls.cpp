#include "net/tls.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <stdexcept>

namespace duelhall::server {

namespace ssl = boost::asio::ssl;

namespace {

// Mozilla's "intermediate" TLS 1.2 suites; TLS 1.3 keeps OpenSSL's own (all AEAD).
constexpr const char* kCiphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
    "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384";

std::string openssl_reason(const boost::system::error_code& ec, bool* mismatch = nullptr) {
  // Asio takes the first OpenSSL error into `ec`; any left in the queue say more.
  std::string reason = ec.message();
  if (mismatch && ec.category() == boost::asio::error::get_ssl_category()) {
    *mismatch =
        ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == X509_R_KEY_VALUES_MISMATCH;
  }
  if (const unsigned long e = ERR_peek_error()) {
    if (mismatch && ERR_GET_REASON(e) == X509_R_KEY_VALUES_MISMATCH) *mismatch = true;
    char buffer[256];
    ERR_error_string_n(e, buffer, sizeof buffer);
    reason = buffer;
  }
  ERR_clear_error();
  return reason;
}

}  // namespace

TlsContext::TlsContext(std::string cert_file, std::string key_file)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)), current_(build()) {}

std::shared_ptr<ssl::context> TlsContext::build() const {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                       ssl::context::no_compression | ssl::context::single_dh_use);
  SSL_CTX* native = context->native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_options(native, SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_set_cipher_list(native, kCiphers);
  boost::system::error_code ec;
  context->use_certificate_chain_file(cert_file_, ec);
  if (ec) {
    throw std::runtime_error("cannot use the TLS certificate " + cert_file_ + ": " +
                             openssl_reason(ec));
  }
  context->use_private_key_file(key_file_, ssl::context::pem, ec);
  if (ec) {
    bool mismatch = false;
    const std::string reason = openssl_reason(ec, &mismatch);
    if (mismatch) {
      throw std::runtime_error("the TLS key " + key_file_ + " does not match the certificate " +
                               cert_file_ + ": " + reason);
    }
    throw std::runtime_error("cannot use the TLS key " + key_file_ + ": " + reason);
  }
  if (SSL_CTX_check_private_key(native) != 1) {
    throw std::runtime_error("the TLS key " + key_file_ + " does not match the certificate " +
                             cert_file_ + ": " + openssl_reason({}));
  }
  return context;
}

bool TlsContext::reload(std::string& error) {
  try {
    auto fresh = build();
    std::lock_guard lock(mutex_);
    current_ = std::move(fresh);
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

std::shared_ptr<ssl::context> TlsContext::current() {
  std::lock_guard lock(mutex_);
  return current_;
}

}  // namespace duelhall::server
