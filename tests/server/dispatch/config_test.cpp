// Configuration: defaults, flags, the TOML file (flags win), and refusals of bad values.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "config/config.hpp"
#include "net/rate_limiter.hpp"

using duelhall::server::parse_args;

TEST_CASE("defaults: port 8080 on every address, data in ./data, 64 KiB frames, 120 s grace") {
  auto parsed = parse_args({});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.port == 8080);
  CHECK(parsed.config.bind == "0.0.0.0");
  CHECK(parsed.config.data_dir == "data");
  CHECK(parsed.config.grace_seconds == 120);
  CHECK(parsed.config.limits.max_message_bytes == 65536);
}

TEST_CASE("flags set values, unknown flags and bad values are refused") {
  auto parsed = parse_args({"--port", "9001", "--bind", "127.0.0.1", "--data", "/tmp/x",
                            "--web-root", "www", "--log-level", "debug", "--max-message", "1024",
                            "--write-queue", "7", "--messages-per-second", "9"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.port == 9001);
  CHECK(parsed.config.bind == "127.0.0.1");
  CHECK(parsed.config.data_dir == "/tmp/x");
  CHECK(parsed.config.web_root == "www");
  CHECK(parsed.config.log_level == "debug");
  CHECK(parsed.config.limits.max_message_bytes == 1024);
  CHECK(parsed.config.limits.write_queue == 7);
  CHECK(parsed.config.limits.messages_per_second == 9);
  CHECK_FALSE(parse_args({"--port", "70000"}).error.empty());
  CHECK_FALSE(parse_args({"--port"}).error.empty());
  CHECK_FALSE(parse_args({"--colour", "red"}).error.empty());
  CHECK_FALSE(parse_args({"--log-level", "loud"}).error.empty());
  CHECK(parse_args({"--help"}).help);
}

TEST_CASE("the TOML file sets values and flags override it") {
  const auto path = std::filesystem::temp_directory_path() / "duelhall-config-test.toml";
  std::ofstream(path) << "port = 9100\nbind = \"127.0.0.1\"\nlog_format = \"json\"\n"
                         "grace_seconds = 30\n[limits]\nmatches = 12\nconnections_per_ip = 3\n";
  auto parsed = parse_args({"--config", path.string(), "--port", "9200"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.port == 9200);
  CHECK(parsed.config.bind == "127.0.0.1");
  CHECK(parsed.config.log_format == "json");
  CHECK(parsed.config.grace_seconds == 30);
  CHECK(parsed.config.limits.max_matches == 12);
  CHECK(parsed.config.limits.max_connections_per_ip == 3);
  std::ofstream(path) << "[limits]\nmatchez = 1\n";
  CHECK(parse_args({"--config", path.string()}).error.find("matchez") != std::string::npos);
  std::ofstream(path) << "port = \"eighty\"\n";
  CHECK_FALSE(parse_args({"--config", path.string()}).error.empty());
  std::filesystem::remove(path);
  CHECK_FALSE(parse_args({"--config", path.string()}).error.empty());
}

TEST_CASE("a floating-point number for a whole-number setting is refused, however large") {
  // 200e100 as a 64-bit integer was undefined behaviour (found by the config_toml fuzz target).
  const auto path = std::filesystem::temp_directory_path() / "duelhall-config-float.toml";
  for (const char* value : {"200e100", "2.0e3", "12.0", "-1e30"}) {
    std::ofstream(path) << "[limits]\nmatches = " << value << "\n";
    duelhall::server::Config config;
    std::string error;
    INFO(value);
    CHECK_FALSE(duelhall::server::apply_toml(path.string(), config, error));
    CHECK(error.find("bad value for 'limits.matches'") != std::string::npos);
    CHECK(config.limits.max_matches == duelhall::server::Limits{}.max_matches);
  }
  std::filesystem::remove(path);
}

TEST_CASE("the help text lists every flag") {
  const std::string help = duelhall::server::help_text();
  for (const char* flag :
       {"--port", "--bind", "--config", "--data", "--web-root", "--log-level", "--log-format",
        "--max-matches", "--max-connections", "--max-connections-per-ip", "--max-message",
        "--messages-per-second", "--write-queue", "--grace", "--idle-timeout"}) {
    CHECK(help.find(flag) != std::string::npos);
  }
}

TEST_CASE("the rate limiter allows a burst, then the rate") {
  using Clock = duelhall::server::RateLimiter::Clock;
  duelhall::server::RateLimiter limiter(10, 20);
  const auto t0 = Clock::now();
  int allowed = 0;
  for (int i = 0; i < 100; ++i) allowed += limiter.allow(t0);
  CHECK(allowed == 20);
  CHECK_FALSE(limiter.allow(t0 + std::chrono::milliseconds(50)));
  CHECK(limiter.allow(t0 + std::chrono::milliseconds(150)));  // 1.5 tokens refilled
}

TEST_CASE("the shipped deploy/duelhall.toml parses and sets what it says") {
  auto parsed =
      parse_args({"--config", std::string(DUELHALL_SOURCE_DIR) + "/deploy/duelhall.toml"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.port == 8080);
  CHECK(parsed.config.data_dir == "/var/lib/duelhall");
  CHECK(parsed.config.limits.updates_held == 4);
  CHECK(parsed.config.limits.write_queue == 512);
  CHECK(parsed.config.trusted_proxies == std::vector<std::string>{"127.0.0.1/32", "::1/128"});
  CHECK(parsed.config.drain_seconds == 10);
  CHECK(parsed.config.tls_cert.empty());
}

TEST_CASE("TLS, trusted proxies and the drain come from flags and the TOML file") {
  const duelhall::server::Config defaults;
  CHECK(defaults.tls_cert.empty());
  CHECK(defaults.trusted_proxies.empty());
  CHECK(defaults.drain_seconds == 10);
  auto parsed = parse_args({"--tls-cert", "c.pem", "--tls-key", "k.pem", "--trusted-proxy",
                            "10.0.0.0/8", "--trusted-proxy", "fd00::/8", "--drain-seconds", "4"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.tls_cert == "c.pem");
  CHECK(parsed.config.tls_key == "k.pem");
  CHECK(parsed.config.trusted_proxies == std::vector<std::string>{"10.0.0.0/8", "fd00::/8"});
  CHECK(parsed.config.drain_seconds == 4);
  CHECK_FALSE(parse_args({"--tls-key", "k.pem"}).error.empty());
  const auto path = std::filesystem::temp_directory_path() /
                    ("duelhall-hosting-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << "trusted_proxies = [\"10.1.0.0/16\"]\ndrain_seconds = 2\n"
                         "[tls]\ncert = \"a.pem\"\nkey = \"b.pem\"\n";
  auto from_file = parse_args({"--config", path.string()});
  std::filesystem::remove(path);
  REQUIRE(from_file.error.empty());
  CHECK(from_file.config.trusted_proxies == std::vector<std::string>{"10.1.0.0/16"});
  CHECK(from_file.config.drain_seconds == 2);
  CHECK(from_file.config.tls_cert == "a.pem");
  CHECK(from_file.config.tls_key == "b.pem");
  const std::string help = duelhall::server::help_text();
  for (const char* flag : {"--tls-cert", "--tls-key", "--trusted-proxy", "--drain-seconds"}) {
    CHECK(help.find(flag) != std::string::npos);
  }
}

TEST_CASE("storage and retention settings come from flags and the TOML file") {
  const duelhall::server::Config defaults;
  CHECK(defaults.storage == "sqlite");
  CHECK(defaults.storage_sync == "full");
  CHECK(defaults.retention_days == 0);
  CHECK(defaults.retention_matches == 0);
  auto parsed = parse_args(
      {"--storage", "memory", "--retention-days", "30", "--retention-matches", "5000", "--prune"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.storage == "memory");
  CHECK(parsed.config.retention_days == 30);
  CHECK(parsed.config.retention_matches == 5000);
  CHECK(parsed.prune);
  CHECK_FALSE(parse_args({"--storage", "postgres"}).error.empty());
  CHECK(parse_args({"--sync", "normal"}).config.storage_sync == "normal");
  CHECK_FALSE(parse_args({"--sync", "off"}).error.empty());
  CHECK_FALSE(parse_args({"--retention-days", "-1"}).error.empty());

  const std::string path =
      (std::filesystem::temp_directory_path() / "duelhall-retention.toml").string();
  std::ofstream(path)
      << "storage = \"memory\"\nstorage_sync = \"normal\"\n[retention]\ndays = 7\nmatches = 100\n";
  auto from_file = parse_args({"--config", path});
  std::filesystem::remove(path);
  REQUIRE(from_file.error.empty());
  CHECK(from_file.config.storage == "memory");
  CHECK(from_file.config.storage_sync == "normal");
  CHECK(from_file.config.retention_days == 7);
  CHECK(from_file.config.retention_matches == 100);
  CHECK_FALSE(from_file.prune);
}

TEST_CASE("an abandoned match ends by default, and --abandoned bots lets the bots play it out") {
  CHECK(duelhall::server::Config{}.abandoned_matches == "end");
  auto parsed = parse_args({"--abandoned", "bots"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.abandoned_matches == "bots");
  CHECK_FALSE(parse_args({"--abandoned", "later"}).error.empty());
  auto shipped =
      parse_args({"--config", std::string(DUELHALL_SOURCE_DIR) + "/deploy/duelhall.toml"});
  REQUIRE(shipped.error.empty());
  CHECK(shipped.config.abandoned_matches == "end");
}

TEST_CASE("the accounts' limits and hashing threads come from flags and the TOML file") {
  const duelhall::server::Config defaults;
  CHECK(defaults.sign_in_failures == 5);
  CHECK(defaults.address_failures == 20);
  CHECK(defaults.account_failures == 20);
  CHECK(defaults.account_delay_seconds == 60);
  CHECK(defaults.password_checks == 60);
  CHECK(defaults.new_guests == 20);
  CHECK(defaults.guest_days == 30);
  CHECK(defaults.hash_threads == 2);
  CHECK(defaults.hash_queue == 16);
  auto parsed = parse_args({"--address-failures", "7", "--account-failures", "30",
                            "--account-delay-seconds", "90", "--password-checks", "40",
                            "--new-guests", "3", "--guest-days", "9", "--hash-threads", "1",
                            "--hash-queue", "4"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.address_failures == 7);
  CHECK(parsed.config.account_failures == 30);
  CHECK(parsed.config.account_delay_seconds == 90);
  CHECK(parsed.config.password_checks == 40);
  CHECK(parsed.config.new_guests == 3);
  CHECK(parsed.config.guest_days == 9);
  CHECK(parsed.config.hash_threads == 1);
  CHECK(parsed.config.hash_queue == 4);
  auto shipped =
      parse_args({"--config", std::string(DUELHALL_SOURCE_DIR) + "/deploy/duelhall.toml"});
  REQUIRE(shipped.error.empty());
  CHECK(shipped.config.address_failures == 20);
  CHECK(shipped.config.account_delay_seconds == 60);
  CHECK(shipped.config.hash_queue == 16);
  CHECK(shipped.config.guest_days == 30);
}
