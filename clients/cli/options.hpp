// duelhall-cli's command line: a server address, one command and how to play.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace duelhall::cli {

enum class AutoPlay {
  kNone,    // interactive: numbered choices read from standard input
  kRandom,  // a seeded random choice among the offered actions
  kFirst,   // always the first offered action
};

struct Options {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;
  std::string name = "cli";
  std::string command;  // rulesets, list, create, join, spectate
  std::vector<std::string> operands;

  // create
  uint32_t seats = 0;  // 0: the ruleset's minimum
  uint32_t bots = 0;
  std::map<std::string, std::string> params;
  bool unlisted = false;
  bool no_spectators = false;
  bool wait_only = false;  // create without joining a seat
  std::string bot_level;
  uint32_t bot_delay_ms = 0;
  // join and spectate
  int seat = -1;
  std::string invite;
  std::string seat_option;

  // play
  AutoPlay autoplay = AutoPlay::kNone;
  uint64_t seed = 1;
  bool quiet = false;  // events and the result only, no views
  uint32_t max_actions = 0;
  bool help = false;
  std::string error;
};

Options parse_options(const std::vector<std::string>& args);
std::string usage();

}  // namespace duelhall::cli
