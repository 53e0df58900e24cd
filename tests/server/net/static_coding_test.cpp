// The web client's first load (issue 36): the build's precompressed copies sent to browsers that
// accept them, with Vary, and hashed assets cached for good while index.html is checked again.
#include <unistd.h>
#include <boost/beast/core/buffers_to_string.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "net/content_coding.hpp"
#include "net/static_files.hpp"

using namespace duelhall::server;
namespace http = boost::beast::http;
namespace fs = std::filesystem;

namespace {

http::response<http::string_body> fetch(const std::string& root, const std::string& target,
                                        const std::string& accept_encoding,
                                        http::verb verb = http::verb::get) {
  http::request<http::string_body> req{verb, target, 11};
  if (!accept_encoding.empty()) req.set(http::field::accept_encoding, accept_encoding);
  http::message_generator generator = answer_http(root, HealthFigures{}, std::move(req));
  std::string wire;
  boost::beast::error_code ec;
  while (!generator.is_done()) {
    auto buffers = generator.prepare(ec);
    REQUIRE(!ec);
    const size_t n = boost::beast::buffer_bytes(buffers);
    wire += boost::beast::buffers_to_string(buffers);
    generator.consume(n);
  }
  http::response_parser<http::string_body> parser;
  if (verb == http::verb::head) parser.skip(true);
  parser.eager(true);
  parser.put(boost::asio::buffer(wire), ec);
  REQUIRE(!ec);
  return parser.release();
}

struct WebRoot {
  fs::path path = fs::temp_directory_path() / ("duelhall-coding-" + std::to_string(::getpid()));
  WebRoot() {
    fs::remove_all(path);
    fs::create_directories(path / "assets");
    write("index.html", "<p>index</p>");
    write("index.html.gz", "gzip of index");
    write("assets/app-1a2b.js", "plain script");
    write("assets/app-1a2b.js.br", "brotli of script");
    write("assets/app-1a2b.js.gz", "gzip of script");
    write("assets/tiny-3c4d.css", "small style");  // too small to have copies
  }
  ~WebRoot() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
  }
  std::string root() const { return path.string(); }
};

}  // namespace

TEST_CASE("Accept-Encoding is read by q-value, names without case, and '*'") {
  CHECK(coding_quality("gzip, deflate, br", "br") == 1.0);
  CHECK(coding_quality("gzip;q=0.5, BR;q=0.8", "br") == 0.8);
  CHECK(coding_quality("gzip;q=0.5, br;q=0.8", "gzip") == 0.5);
  CHECK(coding_quality("br;q=0", "br") == 0.0);
  CHECK(coding_quality("*;q=0.3", "br") == 0.3);
  CHECK(coding_quality("*;q=0.3, br;q=0", "br") == 0.0);
  CHECK(coding_quality("identity", "gzip") == 0.0);
  CHECK(coding_quality("", "gzip") == 0.0);
  CHECK(coding_quality("gzip;q=2", "gzip") == 0.0);  // out of range: not a full yes
  CHECK(coding_quality("gzip ; q=0.7 ", "gzip") == 0.7);
  CHECK(pick_coding("gzip, br", true, true) == ContentCoding::kBrotli);
  CHECK(pick_coding("gzip;q=1, br;q=0.5", true, true) == ContentCoding::kGzip);
  CHECK(pick_coding("br", false, true) == ContentCoding::kIdentity);
  CHECK(pick_coding("gzip, br", false, true) == ContentCoding::kGzip);
  CHECK(pick_coding("*", true, true) == ContentCoding::kBrotli);
}

TEST_CASE("a static file goes out as the precompressed copy the browser accepts") {
  const WebRoot web;
  const auto brotli = fetch(web.root(), "/assets/app-1a2b.js", "gzip, deflate, br");
  CHECK(brotli.result_int() == 200);
  CHECK(brotli[http::field::content_encoding] == "br");
  CHECK(brotli[http::field::content_type] == "text/javascript");
  CHECK(brotli[http::field::vary] == "Accept-Encoding");
  CHECK(brotli.body() == "brotli of script");

  const auto gzip = fetch(web.root(), "/assets/app-1a2b.js", "gzip");
  CHECK(gzip[http::field::content_encoding] == "gzip");
  CHECK(gzip.body() == "gzip of script");

  const auto plain = fetch(web.root(), "/assets/app-1a2b.js", "");
  CHECK(plain[http::field::content_encoding] == "");
  CHECK(plain[http::field::vary] == "Accept-Encoding");  // a cache must not give it to a br client
  CHECK(plain.body() == "plain script");

  const auto refused = fetch(web.root(), "/assets/app-1a2b.js", "br;q=0, gzip;q=0");
  CHECK(refused.body() == "plain script");

  // index.html has only a gzip copy: a Brotli-only browser gets the file itself.
  CHECK(fetch(web.root(), "/", "br").body() == "<p>index</p>");
  CHECK(fetch(web.root(), "/", "br, gzip").body() == "gzip of index");

  // A file without copies says nothing about encodings.
  const auto small = fetch(web.root(), "/assets/tiny-3c4d.css", "gzip, br");
  CHECK(small[http::field::content_encoding] == "");
  CHECK(small[http::field::vary] == "");
  CHECK(small.body() == "small style");

  // HEAD gives the length of what GET would send.
  const auto head = fetch(web.root(), "/assets/app-1a2b.js", "br", http::verb::head);
  CHECK(head[http::field::content_encoding] == "br");
  CHECK(head[http::field::content_length] ==
        std::to_string(std::string("brotli of script").size()));
}

TEST_CASE("hashed assets are cached for good, index.html is checked again") {
  const WebRoot web;
  CHECK(fetch(web.root(), "/assets/app-1a2b.js", "br")[http::field::cache_control] ==
        "public, max-age=31536000, immutable");
  CHECK(fetch(web.root(), "/", "")[http::field::cache_control] == "no-cache");
  CHECK(fetch(web.root(), "/index.html", "")[http::field::cache_control] == "no-cache");
}

TEST_CASE("a precompressed copy that leads out of the web root is not sent") {
  const WebRoot web;
  const fs::path outside =
      web.path.parent_path() / ("duelhall-secret-" + std::to_string(::getpid()));
  std::ofstream(outside) << "secret";
  fs::create_symlink(outside, web.path / "assets" / "tiny-3c4d.css.br");
  const auto answer = fetch(web.root(), "/assets/tiny-3c4d.css", "br");
  CHECK(answer.body() == "small style");
  CHECK(answer[http::field::content_encoding] == "");
  fs::remove(outside);
}
