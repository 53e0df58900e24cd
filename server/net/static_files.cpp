#include "net/static_files.hpp"

#include <filesystem>

#include "metrics/server_metrics.hpp"

namespace duelhall::server {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".css") return "text/css";
  if (ext == ".js" || ext == ".mjs") return "text/javascript";
  if (ext == ".json") return "application/json";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".png") return "image/png";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".ico") return "image/vnd.microsoft.icon";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

const char* kBuiltinPage =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>Duelhall</title></head><body>"
    "<h1>Duelhall</h1><p>The match server is running. The WebSocket endpoint is "
    "<code>/ws</code> (binary Protobuf frames, see docs/protocol.md). No web client has been "
    "built into the configured web root.</p></body></html>";

template <typename Body>
void common(http::response<Body>& res, unsigned version, bool keep_alive) {
  res.version(version);
  res.set(http::field::server, "duelhall");
  res.keep_alive(keep_alive);
}

http::message_generator text(http::status status, std::string body, std::string_view type,
                             const http::request<http::string_body>& req) {
  http::response<http::string_body> res{status, req.version()};
  common(res, req.version(), req.keep_alive());
  res.set(http::field::content_type, type);
  if (req.method() != http::verb::head) res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

}  // namespace

std::string default_web_root() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory("clients/web/dist", ec)) return "clients/web/dist";
  const fs::path source = fs::path(DUELHALL_SOURCE_DIR) / "clients/web/dist";
  if (fs::is_directory(source, ec)) return source.string();
  return {};
}

http::message_generator answer_http(const std::string& web_root, const HealthFigures& health,
                                    http::request<http::string_body>&& req) {
  if (!health.refusal.empty()) {
    return text(http::status::service_unavailable, health.refusal + "\n", "text/plain", req);
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return text(http::status::method_not_allowed, "GET only\n", "text/plain", req);
  }
  std::string_view target = req.target();
  target = target.substr(0, target.find('?'));
  if (target == "/healthz") {
    return text(http::status::ok,
                "{\"status\":\"ok\",\"matches\":" + std::to_string(health.matches) +
                    ",\"connections\":" + std::to_string(health.connections) + "}\n",
                "application/json", req);
  }
  if (target == "/readyz") {
    return text(health.ready ? http::status::ok : http::status::service_unavailable,
                health.ready ? std::string("{\"status\":\"ready\"}\n")
                             : "{\"status\":\"" + health.not_ready + "\"}\n",
                "application/json", req);
  }
  if (target == "/metrics") {
    return text(http::status::ok, metrics::server_metrics().registry.text(),
                "text/plain; version=0.0.4; charset=utf-8", req);
  }
  if (target.empty() || target[0] != '/' || target.find("..") != std::string_view::npos ||
      target.find('\\') != std::string_view::npos || target.find('\0') != std::string_view::npos) {
    return text(http::status::bad_request, "bad path\n", "text/plain", req);
  }
  std::error_code ec;
  if (web_root.empty() || !std::filesystem::is_directory(web_root, ec)) {
    if (target == "/" || target == "/index.html") {
      return text(http::status::ok, kBuiltinPage, "text/html; charset=utf-8", req);
    }
    return text(http::status::not_found, "not found\n", "text/plain", req);
  }
  std::string path = web_root + std::string(target);
  if (path.back() == '/') path += "index.html";
  http::file_body::value_type body;
  beast::error_code open_ec;
  body.open(path.c_str(), beast::file_mode::scan, open_ec);
  if (open_ec) return text(http::status::not_found, "not found\n", "text/plain", req);
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    common(res, req.version(), req.keep_alive());
    res.set(http::field::content_type, mime_type(path));
    res.content_length(size);
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  common(res, req.version(), req.keep_alive());
  res.set(http::field::content_type, mime_type(path));
  res.content_length(size);
  return res;
}

}  // namespace duelhall::server
