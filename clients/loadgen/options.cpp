#include "options.hpp"

#include <charconv>
#include <string_view>

namespace duelhall::loadgen {

std::string usage() {
  return R"(usage: duelhall-loadgen [options]

Opens N matches on a duelhall server with a load-generator client on every seat, over real
WebSockets, plays them (starting a new match on the same connections when one ends) and prints
its figures: actions per second, latency from an action sent to the opponent's update received
(p50, p99), mean bytes per diff and per full view, and server memory per live match.

Options:
  --host HOST          server address (default 127.0.0.1)
  --port PORT          server port (default 8080)
  --ruleset NAME       ruleset to play (default: the first the server lists)
  --matches N          matches played at once (default 100)
  --bot-matches N      besides them, N matches of one load-generator connection against the
                       engine's bot (bot delay 0), paced like the others; the latency figures
                       stay those of the --matches matches, the bot matches' own are the
                       bot_ keys (default 0)
  --bot-level LEVEL    the bot's level in those matches (default expert)
  --paced              each match acts once per second (default: as fast as possible)
  --rate R             paced at R actions per match per second (--paced is --rate 1)
  --idle               nobody acts: the matches stay live at their first decision
  --connections N      no matches: N connections say Hello and wait, held for the warm-up and
                       the duration; prints the server's memory per waiting connection (with
                       --server-pid). --max-opening then counts connections being opened
  --warmup S           seconds after every match is live before measuring (default 2)
  --duration S         seconds measured (default 10)
  --threads N          client threads, each driving its share of the matches (default 1)
  --max-opening N      matches being set up at once (default 200)
  --open-timeout S     seconds allowed for opening every match (default 120), and then for
                       the start file to appear
  --start-file PATH    after opening, wait until PATH exists before the warm-up (several load
                       generators then measure the same window: the caller creates PATH once
                       each has printed its "opened" line)
  --server-pid PID     the server's pid, to read its memory (VmRSS) before and after opening
                       and its CPU time over the window (without it: unknown)
  --seed N             seed for choosing among offered actions (default 1)
  --protocol N         protocol version to speak, 1 to 7 (default 7)
  --help               this text

The last line of output holds the figures as key=value pairs, for scripts.
)";
}

Options parse_options(int argc, char** argv) {
  Options o;
  auto fail = [&o](std::string error) {
    o.error = std::move(error);
    return o;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      continue;
    }
    if (arg == "--paced" || arg == "--idle") {
      o.pace = arg == "--paced" ? Pace::kPaced : Pace::kIdle;
      continue;
    }
    if (i + 1 >= argc) return fail(std::string(arg) + " needs a value (or is unknown)");
    const std::string value = argv[++i];
    uint64_t n = 0;
    double d = 0;
    const bool is_number =
        std::from_chars(value.data(), value.data() + value.size(), n).ec == std::errc();
    const bool is_real =
        std::from_chars(value.data(), value.data() + value.size(), d).ec == std::errc();
    if (arg == "--host") {
      o.host = value;
    } else if (arg == "--ruleset") {
      o.ruleset = value;
    } else if (arg == "--bot-level") {
      if (value.empty()) return fail("--bot-level needs a level");
      o.bot_level = value;
    } else if (arg == "--rate") {
      if (!is_real || d <= 0 || d > 1000) return fail("--rate needs actions per second (0..1000]");
      o.pace = Pace::kPaced;
      o.rate = d;
    } else if (arg == "--start-file") {
      o.start_file = value;
    } else if (arg == "--open-timeout") {
      if (!is_real || d <= 0) return fail("--open-timeout needs seconds");
      o.open_timeout_seconds = d;
    } else if (arg == "--warmup" || arg == "--duration") {
      if (!is_real || d < 0) return fail(std::string(arg) + " needs seconds");
      (arg == "--warmup" ? o.warmup_seconds : o.duration_seconds) = d;
    } else if (!is_number) {
      return fail("unknown option or bad number: " + std::string(arg) + " " + value);
    } else if (arg == "--port") {
      if (n == 0 || n > 65535) return fail("--port needs 1..65535");
      o.port = static_cast<uint16_t>(n);
    } else if (arg == "--matches") {
      o.matches = static_cast<uint32_t>(n);
    } else if (arg == "--bot-matches") {
      o.bot_matches = static_cast<uint32_t>(n);
    } else if (arg == "--connections") {
      if (n == 0) return fail("--connections needs at least 1");
      o.connections = static_cast<uint32_t>(n);
    } else if (arg == "--threads") {
      o.threads = static_cast<uint32_t>(std::max<uint64_t>(n, 1));
    } else if (arg == "--max-opening") {
      o.max_opening = static_cast<uint32_t>(std::max<uint64_t>(n, 1));
    } else if (arg == "--server-pid") {
      o.server_pid = static_cast<long>(n);
    } else if (arg == "--seed") {
      o.seed = n;
    } else if (arg == "--protocol") {
      if (n < 1 || n > 7) return fail("--protocol needs 1 to 7");
      o.protocol = static_cast<uint32_t>(n);
    } else {
      return fail("unknown option " + std::string(arg));
    }
  }
  if (o.matches == 0 && o.bot_matches == 0) return fail("--matches needs at least 1");
  // A bot's move is told apart from the seat's own by the request id its update carries, which
  // protocol 1 does not send.
  if (o.bot_matches > 0 && o.protocol < 2) return fail("--bot-matches needs --protocol 2 or later");
  return o;
}

}  // namespace duelhall::loadgen
