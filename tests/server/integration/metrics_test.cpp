// GET /metrics against the real binary: the Prometheus text passes `promtool check metrics`,
// and its counters move when a match is played, the bot pacer's windows among them; /healthz and
// /readyz answer apart.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "play_helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// The value of one series (`name` with its labels, exactly as rendered); -1 when absent.
double metric(const std::string& text, const std::string& series) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

// promtool's verdict on `text`: its exit status and what it printed.
std::pair<int, std::string> promtool_check(const std::string& text) {
  const auto file = temp_data_dir("metrics") += ".txt";
  std::ofstream(file) << text;
  const std::string command = "promtool check metrics < '" + file.string() + "' 2>&1";
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, "cannot run promtool"};
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = ::pclose(pipe);
  std::filesystem::remove(file);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace

TEST_CASE("metrics: /metrics passes promtool and its counters move after a played match") {
  const auto registry = engine::builtin_registry();
  const auto& info = registry.all().front();
  const std::string rs = "{ruleset=\"" + info.name + "\"}";
  ServerProcess server;  // with the SQLite store, so commits are timed

  const std::string before = http_get(server.port(), "/metrics").body;
  auto [status, output] = promtool_check(before);
  INFO(output);
  REQUIRE(status == 0);
  // Every ruleset's series and the counters kept for later (logins, bans) exist from the start.
  for (const auto& r : registry.all()) {
    CHECK(metric(before, "duelhall_actions_total{ruleset=\"" + r.name + "\"}") == 0);
    CHECK(metric(before, "duelhall_matches_live{ruleset=\"" + r.name + "\"}") == 0);
  }
  CHECK(metric(before, "duelhall_logins_total") == 0);
  CHECK(metric(before, "duelhall_bans_total") == 0);
  CHECK(metric(before, "duelhall_websockets") == 0);

  auto client = connect_as(server.port(), "Metra");
  CHECK(client->request(action(987654, 1)).result() == UNKNOWN_MATCH);
  auto created = client->request(create_match(info.name, info.min_seats, true, info.min_seats - 1));
  REQUIRE(created.result() == OK);
  Played played;
  played.match = created.created().match().match_id();
  const std::string during = http_get(server.port(), "/metrics").body;
  CHECK(metric(during, "duelhall_matches_live" + rs) == 1);
  CHECK(metric(during, "duelhall_websockets") == 1);
  play_seat0(*client, info, played, 5);
  REQUIRE(client->tracker().find(played.match)->ended);
  const uint64_t steps = client->tracker().find(played.match)->seq;

  const std::string after = http_get(server.port(), "/metrics").body;
  std::tie(status, output) = promtool_check(after);
  INFO(output);
  REQUIRE(status == 0);
  CHECK(metric(after, "duelhall_actions_total" + rs) == static_cast<double>(steps));
  CHECK(metric(after, "duelhall_action_update_seconds_count" + rs) ==
        static_cast<double>(played.acks.load()));
  CHECK(metric(after, "duelhall_action_update_seconds_bucket{ruleset=\"" + info.name +
                          "\",le=\"+Inf\"}") == static_cast<double>(played.acks.load()));
  CHECK(metric(after, "duelhall_matches_live" + rs) == 0);
  CHECK(metric(after, "duelhall_refusals_total{code=\"UNKNOWN_MATCH\"}") == 1);
  CHECK(metric(after, "duelhall_store_commit_seconds_count") > 0);
  CHECK(metric(after, "duelhall_ws_sent_frames_total") > static_cast<double>(steps));
  CHECK(metric(after, "duelhall_ws_sent_bytes_total") >
        metric(after, "duelhall_ws_sent_frames_total"));
  CHECK(metric(after, "duelhall_connections") >= 2);  // the client and this scrape
  CHECK(metric(after, "duelhall_rate_limited_total") == 0);

  // The bot pacer's probes run from the start: a window of them every 100 ms.
  std::string paced = after;
  for (int i = 0; i < 50 && metric(paced, "duelhall_io_lag_seconds_count") < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    paced = http_get(server.port(), "/metrics").body;
  }
  CHECK(metric(paced, "duelhall_io_lag_seconds_count") >= 2);
  CHECK(metric(paced, "duelhall_bot_pace_seconds_count") >= 1);
}

TEST_CASE("metrics: logins count registrations and sign-ins, not refused ones") {
  ServerProcess server;
  auto client = connect_as(server.port(), "Logan");
  ClientMessage registration;
  registration.mutable_register_account()->set_name("logan");
  registration.mutable_register_account()->set_password("correct horse");
  REQUIRE(client->request(registration).result() == OK);
  auto other = connect_as(server.port(), "Guest");
  ClientMessage wrong;
  wrong.mutable_sign_in()->set_name("logan");
  wrong.mutable_sign_in()->set_password("wrong horse");
  CHECK(other->request(wrong).result() == WRONG_PASSWORD);
  ClientMessage right = wrong;
  right.mutable_sign_in()->set_password("correct horse");
  REQUIRE(other->request(right).result() == OK);
  const std::string text = http_get(server.port(), "/metrics").body;
  CHECK(metric(text, "duelhall_logins_total") == 2);
  CHECK(metric(text, "duelhall_refusals_total{code=\"WRONG_PASSWORD\"}") == 1);
}

TEST_CASE("metrics: /healthz says alive and /readyz says taking matches") {
  ServerProcess server({"--storage", "memory"});
  CHECK(http_get(server.port(), "/healthz").status == 200);
  const HttpAnswer ready = http_get(server.port(), "/readyz");
  CHECK(ready.status == 200);
  CHECK(ready.body == "{\"status\":\"ready\"}\n");
}
