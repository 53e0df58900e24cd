// duelhall-loadgen's command line (clients/loadgen/options.cpp): the bot matches' options.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "options.hpp"

using duelhall::loadgen::Options;
using duelhall::loadgen::parse_options;

namespace {

Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "duelhall-loadgen");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return parse_options(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("loadgen options: bot matches are off unless asked for, expert by default") {
  const Options o = parse({});
  REQUIRE(o.error.empty());
  CHECK(o.bot_matches == 0);
  CHECK(o.bot_level == "expert");
}

TEST_CASE("loadgen options: --bot-matches and --bot-level beside the human matches") {
  const Options o = parse(
      {"--matches", "500", "--bot-matches", "500", "--bot-level", "heuristic", "--rate", "5"});
  REQUIRE(o.error.empty());
  CHECK(o.matches == 500);
  CHECK(o.bot_matches == 500);
  CHECK(o.bot_level == "heuristic");
  CHECK(o.rate == 5);
}

TEST_CASE("loadgen options: bot matches alone, but never none at all") {
  CHECK(parse({"--matches", "0", "--bot-matches", "3"}).error.empty());
  CHECK_FALSE(parse({"--matches", "0"}).error.empty());
}

TEST_CASE("loadgen options: the bot matches' bad values are refused") {
  CHECK_FALSE(parse({"--bot-matches", "many"}).error.empty());
  CHECK_FALSE(parse({"--bot-level", ""}).error.empty());
  CHECK_FALSE(parse({"--bot-matches"}).error.empty());
  // Protocol 1 carries no request id on the actor's update: the bot's moves could not be told.
  CHECK_FALSE(parse({"--bot-matches", "2", "--protocol", "1"}).error.empty());
  CHECK(parse({"--bot-matches", "2", "--protocol", "2"}).error.empty());
}
