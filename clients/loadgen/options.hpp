// duelhall-loadgen's command line.
#pragma once

#include <cstdint>
#include <string>

namespace duelhall::loadgen {

enum class Pace {
  kFast,   // every seat acts as soon as it is offered an action
  kPaced,  // each match acts `rate` times per second (default once)
  kIdle,   // nobody acts: matches stay live at their first decision (memory baselines)
};

struct Options {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;
  std::string ruleset;  // empty: the first one the server lists
  uint32_t matches = 100;
  // Matches beside them in which one connection plays the engine's bot at `bot_level` (the
  // bot answers at once); their figures are kept apart from the matches above.
  uint32_t bot_matches = 0;
  std::string bot_level = "expert";
  uint32_t connections = 0;  // non-zero: the connections mode (idle_connections.hpp), no matches
  Pace pace = Pace::kFast;
  double rate = 1;                    // paced: actions per match per second
  double warmup_seconds = 2;          // after every match is live, before measuring
  double duration_seconds = 10;       // measuring; finished matches are replaced meanwhile
  uint32_t threads = 1;               // shards, each with its own io_context and matches
  uint32_t max_opening = 200;         // matches being set up at once (connect, hello, create, join)
  double open_timeout_seconds = 120;  // for opening every match, and for the start file
  std::string start_file;  // non-empty: after opening, warm up only once this file exists
  long server_pid = 0;     // read the server's RSS before and after opening the matches
  uint64_t seed = 1;       // for choosing among offered actions
  uint32_t protocol = 7;   // the protocol version announced (1: the older, larger frames)
  bool help = false;
  std::string error;
};

Options parse_options(int argc, char** argv);
std::string usage();

}  // namespace duelhall::loadgen
