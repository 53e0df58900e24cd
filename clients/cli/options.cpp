#include "options.hpp"

#include <charconv>

namespace duelhall::cli {

namespace {

bool to_number(const std::string& text, uint64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Splits "ws://host:port/ws" (or "host:port") into host and port; the path is always /ws.
bool parse_url(std::string url, Options& o) {
  if (url.rfind("ws://", 0) == 0) url = url.substr(5);
  const auto slash = url.find('/');
  if (slash != std::string::npos) {
    if (url.substr(slash) != "/ws" && url.substr(slash) != "/") return false;
    url = url.substr(0, slash);
  }
  const auto colon = url.rfind(':');
  if (colon == std::string::npos) {
    o.host = url;
    return !o.host.empty();
  }
  o.host = url.substr(0, colon);
  uint64_t port = 0;
  if (!to_number(url.substr(colon + 1), port) || port == 0 || port > 65535) return false;
  o.port = static_cast<uint16_t>(port);
  return !o.host.empty();
}

}  // namespace

std::string usage() {
  return R"(usage: duelhall-cli [options] COMMAND [operands]

Commands:
  rulesets               list the server's rulesets and their parameters
  list                   list the public matches
  create RULESET         create a match, take seat 0 and play it
  join MATCH_ID          take a seat in a match and play it
  spectate MATCH_ID      watch a match to its end

Options:
  --url ws://HOST:PORT/ws   server address (default ws://127.0.0.1:8080/ws)
  --name NAME               display name (default cli)
  --seats N                 create: seats (default the ruleset's minimum)
  --bots N                  create: give the last N seats to the engine's bot
  --param KEY=VALUE         create: a ruleset parameter (repeatable)
  --unlisted                create: a private match, joined with its invite code
  --no-spectators           create: spectators not allowed
  --host-only               create: do not take a seat, print the match id and exit
  --bot-level LEVEL         create: the bots' level
  --bot-delay-ms MS         create: bots wait this long before acting
  --seat N                  join: the seat to take (default the first free one)
  --invite CODE             join, spectate: the invite code of a private match
  --seat-option TEXT        create, join: the seat's setup text (a deck list)
  --auto random|first       play by itself among the offered actions (default: ask)
  --seed N                  seed of --auto random (default 1)
  --max-actions N           stop after this many own actions (0: play to the end)
  --quiet                   print events and the result, not the views
  --help                    this text

Interactive play: type the number of an action; "/text" sends a chat line.
A lost connection (a server restart, a match moved to another node of a cluster) is reconnected
to with the same identity and the match resumed, for up to 30 s.
Exit status: 0 when the match ended, 1 on a refusal or a connection that could not be resumed,
2 on bad usage.
)";
}

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  auto fail = [&o](std::string error) {
    o.error = std::move(error);
    return o;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    auto value = [&]() -> std::string { return has_value ? args[++i] : std::string(); };
    auto number = [&](uint64_t& out) {
      if (!has_value) return false;
      return to_number(args[++i], out);
    };
    uint64_t n = 0;
    if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (arg == "--url") {
      if (!has_value || !parse_url(value(), o)) return fail("--url needs ws://HOST:PORT/ws");
    } else if (arg == "--name") {
      if (!has_value) return fail("--name needs a value");
      o.name = value();
    } else if (arg == "--seats" || arg == "--bots" || arg == "--seat" || arg == "--seed" ||
               arg == "--max-actions" || arg == "--bot-delay-ms") {
      if (!number(n)) return fail(arg + " needs a number");
      if (arg == "--seats") o.seats = static_cast<uint32_t>(n);
      if (arg == "--bots") o.bots = static_cast<uint32_t>(n);
      if (arg == "--seat") o.seat = static_cast<int>(n);
      if (arg == "--seed") o.seed = n;
      if (arg == "--max-actions") o.max_actions = static_cast<uint32_t>(n);
      if (arg == "--bot-delay-ms") o.bot_delay_ms = static_cast<uint32_t>(n);
    } else if (arg == "--param") {
      const std::string kv = value();
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return fail("--param needs KEY=VALUE");
      o.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    } else if (arg == "--unlisted") {
      o.unlisted = true;
    } else if (arg == "--no-spectators") {
      o.no_spectators = true;
    } else if (arg == "--host-only") {
      o.wait_only = true;
    } else if (arg == "--bot-level") {
      o.bot_level = value();
    } else if (arg == "--invite") {
      o.invite = value();
    } else if (arg == "--seat-option") {
      o.seat_option = value();
    } else if (arg == "--auto") {
      const std::string mode = value();
      if (mode == "random") {
        o.autoplay = AutoPlay::kRandom;
      } else if (mode == "first") {
        o.autoplay = AutoPlay::kFirst;
      } else {
        return fail("--auto takes random or first");
      }
    } else if (arg == "--quiet") {
      o.quiet = true;
    } else if (arg.rfind("--", 0) == 0) {
      return fail("unknown option " + arg);
    } else if (o.command.empty()) {
      o.command = arg;
    } else {
      o.operands.push_back(arg);
    }
  }
  if (o.help) return o;
  if (o.command.empty()) return fail("a command is needed");
  const bool needs_operand =
      o.command == "create" || o.command == "join" || o.command == "spectate";
  if (o.command != "rulesets" && o.command != "list" && !needs_operand) {
    return fail("unknown command " + o.command);
  }
  if (needs_operand && o.operands.size() != 1) return fail(o.command + " takes one operand");
  return o;
}

}  // namespace duelhall::cli
