#include "net/static_files.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "metrics/server_metrics.hpp"
#include "net/content_coding.hpp"

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

// What the web client needs (clients/web): its own scripts and styles (style attributes set by
// script too), its favicon drawn as a data: SVG, and WebSockets to this server or, in a cluster,
// to the node a match lives on (any ws:/wss: origin).
const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'";

const char* kBuiltinPage =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>Duelhall</title></head><body>"
    "<h1>Duelhall</h1><p>The match server is running. The WebSocket endpoint is "
    "<code>/ws</code> (binary Protobuf frames, see docs/protocol.md). No web client has been "
    "built into the configured web root.</p></body></html>";

template <typename Body>
void common(http::response<Body>& res, unsigned version, bool keep_alive) {
  res.version(version);
  res.set(http::field::server, "duelhall");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Content-Security-Policy", kContentSecurityPolicy);
  res.keep_alive(keep_alive);
}

// The file a request path names under the (canonical) root, or nullopt when it resolves (through
// a symlink) outside it. The file need not exist.
std::optional<std::filesystem::path> inside_root(const std::filesystem::path& root,
                                                 std::string_view target) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path = fs::weakly_canonical(root / fs::path(target).relative_path(), ec);
  if (ec) return std::nullopt;
  const auto [end, _] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  if (end != root.end()) return std::nullopt;
  return path;
}

// The build's precompressed copies of a file (scripts/compress-dist.mjs), each kept inside the
// root like the file itself.
struct Copies {
  bool brotli = false;
  bool gzip = false;
};

Copies precompressed(const std::filesystem::path& root, const std::string& wanted) {
  const auto regular = [&](const char* suffix) {
    const auto copy = inside_root(root, wanted + suffix);
    std::error_code ec;
    return copy && std::filesystem::is_regular_file(*copy, ec);
  };
  return {regular(".br"), regular(".gz")};
}

// The bundler names what it emits under assets/ by a hash of the content: such a file never
// changes, so a browser keeps it a year without asking. Anything else (index.html, which names
// the current assets) is checked again before each use.
std::string_view cache_control(std::string_view target) {
  return target.starts_with("/assets/") ? "public, max-age=31536000, immutable" : "no-cache";
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
    return text(static_cast<http::status>(health.refusal_status), health.refusal + "\n",
                "text/plain", req);
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
  std::string wanted(target);
  if (wanted.back() == '/') wanted += "index.html";
  // Made canonical once: the file and its precompressed copies are each checked against it.
  const std::filesystem::path root = std::filesystem::canonical(web_root, ec);
  if (ec) return text(http::status::not_found, "not found\n", "text/plain", req);
  const auto resolved = inside_root(root, wanted);
  if (!resolved) return text(http::status::not_found, "not found\n", "text/plain", req);
  if (std::filesystem::is_directory(*resolved, ec)) {
    if (target.back() == '/')
      return text(http::status::not_found, "not found\n", "text/plain", req);
    // A folder named without its slash: its index.html's relative links need the slash.
    http::response<http::string_body> moved{http::status::moved_permanently, req.version()};
    common(moved, req.version(), req.keep_alive());
    moved.set(http::field::location, std::string(target) + "/");
    moved.set(http::field::content_type, "text/plain");
    if (req.method() != http::verb::head) moved.body() = "moved\n";
    moved.prepare_payload();
    return moved;
  }
  const std::string path = resolved->string();
  const Copies copies = precompressed(root, wanted);
  const ContentCoding coding =
      pick_coding(req[http::field::accept_encoding], copies.brotli, copies.gzip);
  http::file_body::value_type body;
  beast::error_code open_ec;
  body.open((path + std::string(coding_suffix(coding))).c_str(), beast::file_mode::scan, open_ec);
  if (open_ec) return text(http::status::not_found, "not found\n", "text/plain", req);
  const auto size = body.size();
  const auto file_headers = [&](auto& res) {
    common(res, req.version(), req.keep_alive());
    res.set(http::field::content_type, mime_type(path));
    res.set(http::field::cache_control, cache_control(target));
    if (copies.brotli || copies.gzip) res.set(http::field::vary, "Accept-Encoding");
    if (coding != ContentCoding::kIdentity)
      res.set(http::field::content_encoding, coding_name(coding));
    res.content_length(size);
  };
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    file_headers(res);
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  file_headers(res);
  return res;
}

}  // namespace duelhall::server
