// duelhall-loadgen against a server that refuses its Hello: it says so, with the refusal's code
// and reason, rather than taking the empty answer that follows for a missing ruleset.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "../server/integration/moderation_helpers.hpp"

using namespace duelhall::testing;

TEST_CASE("loadgen: a refused Hello is printed with its refusal, not as a missing ruleset") {
  ServerProcess server;
  // A guest may not go by an account's name: the load generator's guest "loadgen" is refused.
  account_connection(server.port(), "loadgen");
  const std::string command = std::string(DUELHALL_LOADGEN) + " --port " +
                              std::to_string(server.port()) +
                              " --matches 1 --warmup 0 --duration 1 2>&1";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  std::array<char, 512> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), pipe)) output += chunk.data();
  const int status = ::pclose(pipe);
  INFO(output);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(output.find("refused the Hello: BAD_NAME: that name belongs to an account") !=
        std::string::npos);
  CHECK(output.find("has no ruleset") == std::string::npos);
}
