// The edge's defences alone (issue 29): X-Forwarded-For read from the right behind a trusted
// proxy (item 3), close reasons cut at UTF-8 characters and log fields escaped (item 16), and
// static files kept inside the web root with safe headers (item 17).
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "metrics/log_field.hpp"
#include "net/static_files.hpp"
#include "net/trusted_proxies.hpp"
#include "net/ws_session.hpp"

using namespace duelhall::server;
namespace ip = boost::asio::ip;
namespace http = boost::beast::http;

namespace {

std::optional<std::string> client_of(const std::vector<std::string_view>& lines) {
  TrustedProxies proxies;
  std::string error;
  REQUIRE(proxies.add("10.0.0.0/8", error));
  return proxies.client_address(ip::make_address("10.0.0.2"), lines);
}

struct Answer {
  unsigned status = 0;
  std::string location;
  std::string nosniff;
  std::string policy;
};

Answer get(const std::string& root, const std::string& target) {
  http::request<http::string_body> req{http::verb::get, target, 11};
  http::message_generator generator = answer_http(root, HealthFigures{}, std::move(req));
  // Serialize the answer and read back its header.
  std::string wire;
  boost::beast::error_code ec;
  while (true) {
    auto buffers = generator.prepare(ec);
    if (ec || boost::beast::buffer_bytes(buffers) == 0) break;
    const size_t n = boost::beast::buffer_bytes(buffers);
    wire += boost::beast::buffers_to_string(buffers);
    generator.consume(n);
    if (generator.is_done()) break;
  }
  http::response_parser<http::string_body> parser;
  parser.eager(true);
  parser.put(boost::asio::buffer(wire), ec);
  const auto& res = parser.get();
  return {res.result_int(), std::string(res[http::field::location]),
          std::string(res["X-Content-Type-Options"]), std::string(res["Content-Security-Policy"])};
}

}  // namespace

TEST_CASE("item 3: X-Forwarded-For is read from the right, past trusted hops only") {
  CHECK(client_of({"203.0.113.5"}) == "203.0.113.5");
  // What a client writes to the left of its own address does not hide it.
  CHECK(client_of({"garbage, 203.0.113.5"}) == "203.0.113.5");
  CHECK(client_of({"unknown, 203.0.113.5"}) == "203.0.113.5");
  CHECK(client_of({"198.51.100.1, 203.0.113.5, 10.0.0.7"}) == "203.0.113.5");
  // Ports, bracketed IPv6.
  CHECK(client_of({"203.0.113.5:4711"}) == "203.0.113.5");
  CHECK(client_of({"[2001:db8::7]:4711"}) == "2001:db8::7");
  CHECK(client_of({"[2001:db8::7]"}) == "2001:db8::7");
  CHECK(client_of({"2001:db8::7"}) == "2001:db8::7");
  // Two header lines are one list: a client's own line first does not hide the proxy's.
  CHECK(client_of({"198.51.100.1", "203.0.113.5"}) == "203.0.113.5");
  // An unreadable hop where the client should be is refused, never charged to the proxy.
  CHECK_FALSE(client_of({"203.0.113.5, garbage"}));
  CHECK_FALSE(client_of({"unknown"}));
  CHECK_FALSE(client_of({"203.0.113.5:"}));
  // All trusted: the left-most; no header: the proxy itself.
  CHECK(client_of({"10.1.1.1, 10.2.2.2"}) == "10.1.1.1");
  CHECK(client_of({}) == "10.0.0.2");
  // A peer that is not a trusted proxy is not believed.
  TrustedProxies proxies;
  std::string error;
  REQUIRE(proxies.add("10.0.0.0/8", error));
  CHECK(proxies.client_address(ip::make_address("192.0.2.9"), {"203.0.113.5"}) == "192.0.2.9");
}

TEST_CASE("item 16: a close reason is cut at a UTF-8 character, a log field cannot forge a line") {
  const std::string euro = "\xe2\x82\xac";  // three bytes
  std::string reason = "KICKED: ";
  while (reason.size() < 200) reason += euro;
  const std::string cut = close_frame_reason(reason);
  CHECK(cut.size() <= 123);
  CHECK(cut.size() > 118);
  CHECK((cut.size() - 8) % 3 == 0);  // whole characters only
  CHECK(close_frame_reason("short") == "short");
  CHECK(duelhall::metrics::log_field("spam\n2026-11-28 00:00:00.000 info moderator admin banned") ==
        "spam\\n2026-11-28 00:00:00.000 info moderator admin banned");
  CHECK(duelhall::metrics::log_field("a\"b\\c\x1b") == "a\\\"b\\\\c\\u001b");
  CHECK(duelhall::metrics::log_field("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("item 17: static files stay inside the web root, folders redirect, safe headers") {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / ("duelhall-web-" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base / "root" / "docs");
  fs::create_directories(base / "outside");
  std::ofstream(base / "root" / "index.html") << "<p>hi</p>";
  std::ofstream(base / "root" / "docs" / "index.html") << "<p>docs</p>";
  std::ofstream(base / "outside" / "secret.txt") << "secret";
  fs::create_symlink(base / "outside" / "secret.txt", base / "root" / "leak.txt");
  fs::create_directory_symlink(base / "outside", base / "root" / "away");
  const std::string root = (base / "root").string();

  const Answer index = get(root, "/");
  CHECK(index.status == 200);
  CHECK(index.nosniff == "nosniff");
  CHECK(index.policy.find("script-src 'self'") != std::string::npos);
  CHECK(index.policy.find("connect-src 'self' ws: wss:") != std::string::npos);
  CHECK(get(root, "/leak.txt").status == 404);
  CHECK(get(root, "/away/secret.txt").status == 404);
  const Answer folder = get(root, "/docs");
  CHECK(folder.status == 301);
  CHECK(folder.location == "/docs/");
  CHECK(get(root, "/docs/").status == 200);
  CHECK(get(root, "/missing.js").nosniff == "nosniff");
  fs::remove_all(base);
}
