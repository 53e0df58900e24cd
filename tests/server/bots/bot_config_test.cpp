// The host's bot settings ([bots] in the TOML file, --bot-* flags, --help, deploy/duelhall.toml).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "config/config.hpp"

using duelhall::server::parse_args;

TEST_CASE("the bots' threads, queue and budget come from flags and the TOML file") {
  const duelhall::server::BotSettings defaults;
  CHECK(defaults.threads == 1);
  CHECK(defaults.queue == 64);
  CHECK(defaults.iterations == 400);
  CHECK(defaults.milliseconds == 50);
  CHECK(defaults.nice == 10);
  CHECK(defaults.pace_lag_ms == 1);
  CHECK(defaults.pace_max_ms == 1000);
  auto parsed = parse_args({"--bot-threads", "3", "--bot-queue", "9", "--bot-iterations", "0",
                            "--bot-ms", "150", "--bot-nice", "0",
                            "--bot-pace-lag-ms", "0", "--bot-pace-max-ms", "300"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.bots.threads == 3);
  CHECK(parsed.config.bots.queue == 9);
  CHECK(parsed.config.bots.iterations == 0);
  CHECK(parsed.config.bots.milliseconds == 150);
  CHECK(parsed.config.bots.nice == 0);
  CHECK(parsed.config.bots.pace_lag_ms == 0);
  CHECK(parsed.config.bots.pace_max_ms == 300);
  // A search needs an end.
  CHECK_FALSE(parse_args({"--bot-iterations", "0", "--bot-ms", "0"}).error.empty());
  CHECK_FALSE(parse_args({"--bot-threads", "-1"}).error.empty());
  CHECK_FALSE(parse_args({"--bot-ms", "999999999"}).error.empty());
  CHECK_FALSE(parse_args({"--bot-nice", "20"}).error.empty());  // 19 is the lowest priority
  CHECK_FALSE(parse_args({"--bot-pace-max-ms", "60001"}).error.empty());

  const auto path = std::filesystem::temp_directory_path() /
                    ("duelhall-bots-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << "[bots]\nthreads = 0\nqueue = 5\niterations = 900\nmilliseconds = 0\n"
                       << "pace_lag_ms = 5\npace_max_ms = 250\n";
  auto from_file = parse_args({"--config", path.string(), "--bot-queue", "6"});
  std::filesystem::remove(path);
  REQUIRE(from_file.error.empty());
  CHECK(from_file.config.bots.threads == 0);
  CHECK(from_file.config.bots.queue == 6);  // the flag wins
  CHECK(from_file.config.bots.iterations == 900);
  CHECK(from_file.config.bots.milliseconds == 0);
  CHECK(from_file.config.bots.pace_lag_ms == 5);
  CHECK(from_file.config.bots.pace_max_ms == 250);

  const std::string help = duelhall::server::help_text();
  for (const char* key :
       {"--bot-threads", "--bot-queue", "--bot-iterations", "--bot-ms", "--bot-nice",
        "--bot-pace-lag-ms", "--bot-pace-max-ms", "bots.threads", "bots.queue", "bots.iterations",
        "bots.milliseconds", "bots.nice", "bots.pace_lag_ms", "bots.pace_max_ms"}) {
    CHECK(help.find(key) != std::string::npos);
  }
}

TEST_CASE("the shipped deploy/duelhall.toml sets the bots' defaults") {
  auto parsed =
      parse_args({"--config", std::string(DUELHALL_SOURCE_DIR) + "/deploy/duelhall.toml"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.bots.threads == 1);
  CHECK(parsed.config.bots.queue == 64);
  CHECK(parsed.config.bots.iterations == 400);
  CHECK(parsed.config.bots.milliseconds == 50);
  CHECK(parsed.config.bots.nice == 10);
  CHECK(parsed.config.bots.pace_lag_ms == 1);
  CHECK(parsed.config.bots.pace_max_ms == 1000);
}
