// The table of the server's settings (config.cpp reads flags and TOML through it): each setting's
// flag, TOML key, help line and how it is parsed into the Config.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace duelhall::server {

// One table drives the flags, the TOML keys and the help text, so they cannot drift apart.
struct Option {
  const char* flag;      // "--port"
  const char* toml_key;  // "port" or "limits.message_size"
  const char* help;
  std::function<bool(Config&, const std::string&)> set;
};

// Every setting, in the order the help text lists them.
const std::vector<Option>& options();

}  // namespace duelhall::server
