// Answers plain HTTP requests: files under the web root (a precompressed copy when the browser
// accepts one, cached for as long as the name says the content holds), /healthz (alive), /readyz
// (taking new matches), /metrics (Prometheus text), and a built-in page when no web client has
// been built.
#pragma once

#include <boost/beast/http.hpp>
#include <string>

namespace duelhall::server {

struct HealthFigures {
  size_t matches = 0;
  size_t connections = 0;
  bool ready = true;                   // /readyz: taking new matches (false while draining)
  std::string refusal;                 // set: the request is refused with this reason and
  unsigned refusal_status = 503;       // this status
  std::string not_ready = "draining";  // /readyz's status when not ready
};

boost::beast::http::message_generator answer_http(
    const std::string& web_root, const HealthFigures& health,
    boost::beast::http::request<boost::beast::http::string_body>&& request);

// The web root to use when none is configured: clients/web/dist under the working directory if
// it exists, else under the source tree the binary was built from; empty when neither exists.
std::string default_web_root();

}  // namespace duelhall::server
