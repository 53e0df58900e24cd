// TLS against the real binary: HTTPS and WSS on one port with a certificate made at test time,
// messages of several records each way and a close with its reason over WSS, a reload on SIGHUP that new handshakes see while open connections carry on, and a start that
// stops with a clear message on a bad certificate or key.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "helpers.hpp"
#include "tls_helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage hello(const std::string& name) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_display_name(name);
  return m;
}

}  // namespace

TEST_CASE("TLS: HTTPS and WSS are served on one port with a self-signed certificate") {
  const auto folder = temp_data_dir("tls-certs");
  const TestCertificate cert = make_certificate(folder, "a");
  ServerProcess server(
      {"--tls-cert", cert.cert.string(), "--tls-key", cert.key.string(), "--storage", "memory"});
  const HttpAnswer health = https_get(server.port(), "/healthz", cert.cert);
  CHECK(health.status == 200);
  CHECK(health.body.find("\"ok\"") != std::string::npos);
  CHECK(https_get(server.port(), "/readyz", cert.cert).status == 200);

  WssClient client(server.port(), cert.cert);
  const ServerMessage welcome = client.request(hello("Tess"));
  CHECK(welcome.result() == OK);
  CHECK(welcome.welcome().display_name() == "Tess");
  CHECK(client.request(ping(7)).pong().nonce() == 7);

  // Plain HTTP on the TLS port gets no answer.
  CHECK_THROWS(http_get(server.port(), "/healthz"));
  // A client that trusts another certificate refuses the server's.
  const TestCertificate other = make_certificate(folder, "other");
  CHECK_THROWS(https_get(server.port(), "/healthz", other.cert));
  CHECK(server.alive());
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
}

TEST_CASE("TLS: WSS carries messages larger than a record both ways, pipelined, and closes with its reason") {
  const auto folder = temp_data_dir("tls-large");
  const TestCertificate cert = make_certificate(folder, "a");
  ServerProcess server(
      {"--tls-cert", cert.cert.string(), "--tls-key", cert.key.string(), "--storage", "memory"});
  WssClient client(server.port(), cert.cert);
  REQUIRE(client.request(hello("Tess")).result() == OK);

  // Every phrase book: one reply of several TLS records (16 KB each at most).
  ClientMessage list;
  list.mutable_list_rulesets();
  const ServerMessage plain_list = client.request(list);
  for (const auto& info : plain_list.rulesets().rulesets()) {
    if (info.has_phrase_book()) list.mutable_list_rulesets()->add_phrases_of(info.name());
  }
  REQUIRE(list.list_rulesets().phrases_of_size() > 0);
  const ServerMessage books = client.request(list);
  CHECK(books.result() == OK);
  CHECK(books.ByteSizeLong() > 16 * 1024);
  CHECK(books.rulesets().rulesets_size() == plain_list.rulesets().rulesets_size());

  // A message the server reads in many pieces: a lobby chat line of 2,000 bytes.
  ClientMessage chat;
  chat.mutable_chat()->set_text(std::string(2000, 'x'));
  CHECK(client.request(chat).result() != MALFORMED_FRAME);  // read whole, then judged

  // Twenty pings sent before any answer is read: twenty pongs, in order.
  std::vector<uint64_t> sent;
  for (uint64_t n = 1; n <= 20; ++n) sent.push_back(client.send(ping(n)));
  std::vector<uint64_t> nonces;
  while (nonces.size() < sent.size()) {
    const ServerMessage m = client.read();
    if (m.has_pong()) nonces.push_back(m.pong().nonce());
  }
  for (uint64_t n = 1; n <= 20; ++n) CHECK(nonces[n - 1] == n);

  // A text frame is refused with a close frame whose reason arrives through the TLS shutdown.
  client.send_text("hello");
  CHECK(client.read_until_closed() == "MALFORMED_FRAME: binary frames only");
  CHECK(server.alive());
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
}

TEST_CASE("TLS: SIGHUP reloads the certificate for new handshakes, open connections carry on") {
  const auto folder = temp_data_dir("tls-reload");
  const TestCertificate first = make_certificate(folder, "first");
  const auto live_cert = folder / "live-cert.pem";
  const auto live_key = folder / "live-key.pem";
  std::filesystem::copy_file(first.cert, live_cert);
  std::filesystem::copy_file(first.key, live_key);
  ServerProcess server(
      {"--tls-cert", live_cert.string(), "--tls-key", live_key.string(), "--storage", "memory"});
  WssClient open_before(server.port(), first.cert);
  REQUIRE(open_before.request(hello("Early")).result() == OK);

  const TestCertificate second = make_certificate(folder, "second");
  std::filesystem::copy_file(second.cert, live_cert,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(second.key, live_key,
                             std::filesystem::copy_options::overwrite_existing);
  server.signal(SIGHUP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool reloaded = false;
  while (!reloaded && std::chrono::steady_clock::now() < deadline) {
    try {
      reloaded = https_get(server.port(), "/healthz", second.cert).status == 200;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  REQUIRE(reloaded);
  CHECK_THROWS(https_get(server.port(), "/healthz", first.cert));
  // The connection made under the old certificate was not dropped.
  CHECK(open_before.request(ping(42)).pong().nonce() == 42);
  CHECK(server.alive());
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
}

TEST_CASE("TLS: a bad certificate or key stops the start with a clear message") {
  const auto folder = temp_data_dir("tls-bad");
  const TestCertificate good = make_certificate(folder, "good");
  const TestCertificate other = make_certificate(folder, "other");
  const auto data = temp_data_dir("tls-bad-data");
  const std::string data_flag = data.string();
  {
    const auto garbage = folder / "garbage.pem";
    std::ofstream(garbage) << "not a certificate\n";
    const ExitResult r = run_to_exit({"--data", data_flag, "--storage", "memory", "--tls-cert",
                                      garbage.string(), "--tls-key", good.key.string()});
    CHECK(r.status == 1);
    CHECK(r.output.find("cannot use the TLS certificate " + garbage.string()) != std::string::npos);
  }
  {
    const ExitResult r = run_to_exit({"--data", data_flag, "--storage", "memory", "--tls-cert",
                                      good.cert.string(), "--tls-key", other.key.string()});
    CHECK(r.status == 1);
    CHECK(r.output.find("does not match the certificate") != std::string::npos);
  }
  {
    const ExitResult r =
        run_to_exit({"--data", data_flag, "--storage", "memory", "--tls-cert", good.cert.string(),
                     "--tls-key", (folder / "missing.pem").string()});
    CHECK(r.status == 1);
    CHECK(r.output.find("cannot use the TLS key") != std::string::npos);
  }
  {
    const ExitResult r = run_to_exit({"--tls-cert", good.cert.string()});
    CHECK(r.status == 2);
    CHECK(r.output.find("--tls-cert and --tls-key go together") != std::string::npos);
  }
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
  std::filesystem::remove_all(data, ec);
}
