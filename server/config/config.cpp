#include "config/config.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <functional>
#include <map>

#include "config/config_options.hpp"

namespace duelhall::server {

std::string help_text() {
  std::string out =
      "Usage: duelhall [options]\n"
      "The Duelhall match server: HTTP at /, /healthz (alive), /readyz (taking matches),\n"
      "/metrics (Prometheus), and the game WebSocket at /ws. SIGHUP rereads the TLS files;\n"
      "SIGTERM drains: no new matches, clients are told, matches in play resume after a\n"
      "restart.\n\n"
      "  --help                       show this text\n"
      "  --config FILE                read settings from a TOML file (flags override it)\n"
      "  --prune                      apply the retention settings to the store and exit\n"
      "Roles (docs/moderation.md), on the data folder, with or without a running server:\n"
      "  duelhall admin grant NAME [--role admin|moderator] [--data DIR | --config FILE]\n"
      "  duelhall admin revoke NAME [--data DIR | --config FILE]\n"
      "  duelhall admin unban BAN_ID|ADDRESS|ACCOUNT [--data DIR | --config FILE]\n"
      "(N is a number, an address, a path or a name as the text says)\n";
  for (const Option& o : options()) {
    std::string left = std::string("  ") + o.flag + " N";
    left.resize(std::max<size_t>(left.size() + 2, 31), ' ');
    out += left + o.help + "  [toml: " + o.toml_key + "]\n";
  }
  return out;
}

bool apply_toml(const std::string& path, Config& config, std::string& error) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    error = "config " + path + ": " + std::string(e.description());
    return false;
  }
  std::map<std::string, const Option*> by_key;
  for (const Option& o : options()) by_key[o.toml_key] = &o;
  bool ok = true;
  std::function<void(const std::string&, const toml::node&)> visit;
  visit = [&](const std::string& key, const toml::node& node) {
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      error = "config " + path + ": unknown key '" + key + "'";
      ok = false;
      return;
    }
    if (const toml::array* list = node.as_array()) {
      for (const toml::node& item : *list) visit(key, item);
      return;
    }
    std::string value;
    if (auto s = node.value<std::string>())
      value = *s;
    else if (const auto* i = node.as_integer())  // not value<int64_t>(): it casts any float
      value = std::to_string(i->get());
    if (value.empty() || !it->second->set(config, value)) {
      error = "config " + path + ": bad value for '" + key + "'";
      ok = false;
    }
  };
  for (auto& [key, node] : doc) {
    if (const toml::table* table = node.as_table()) {
      for (auto& [sub, subnode] : *table) {
        visit(std::string(key.str()) + "." + std::string(sub.str()), subnode);
      }
    } else {
      visit(std::string(key.str()), node);
    }
  }
  return ok;
}

ParsedArgs parse_args(const std::vector<std::string>& args) {
  ParsedArgs parsed;
  // The config file first, so that flags override it wherever they appear.
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--config" && !apply_toml(args[i + 1], parsed.config, parsed.error)) {
      return parsed;
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      parsed.help = true;
      continue;
    }
    if (arg == "--prune") {
      parsed.prune = true;
      continue;
    }
    if (arg == "--config") {
      if (i + 1 >= args.size()) parsed.error = "--config needs a file";
      ++i;
      continue;
    }
    const Option* option = nullptr;
    for (const Option& o : options()) {
      if (arg == o.flag) option = &o;
    }
    if (!option) {
      parsed.error = "unknown option '" + arg + "' (see --help)";
      return parsed;
    }
    if (i + 1 >= args.size() || !option->set(parsed.config, args[i + 1])) {
      parsed.error = "bad or missing value for " + arg;
      return parsed;
    }
    ++i;
  }
  if (parsed.config.bots.iterations == 0 && parsed.config.bots.milliseconds == 0) {
    parsed.error = "--bot-iterations and --bot-ms may not both be 0 (a search without end)";
  }
  if (parsed.config.tls_cert.empty() != parsed.config.tls_key.empty()) {
    parsed.error = "--tls-cert and --tls-key go together";
  }
  return parsed;
}

}  // namespace duelhall::server
