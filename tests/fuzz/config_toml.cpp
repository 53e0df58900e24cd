// The TOML configuration file and the command line: arbitrary text as the file given to
// --config, and arbitrary words as flags after it. Each must give a Config or an error. The
// input is the file's text, then optionally a NUL and NUL-separated flags.
#include <unistd.h>
#include <algorithm>

#include <filesystem>
#include <fstream>

#include "config/config.hpp"
#include "support.hpp"

using namespace duelhall;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("duelhall-fuzz-config-" + std::to_string(::getpid()) + ".toml"))
                                      .string();
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t end_of_file = std::min(input.find('\0'), input.size());
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << input.substr(0, end_of_file);
  }
  std::vector<std::string> args = {"--config", path};
  std::string_view flags = input.substr(std::min(end_of_file + 1, input.size()));
  while (!flags.empty() && args.size() < 12) {
    const size_t end = std::min(flags.find('\0'), flags.size());
    args.emplace_back(flags.substr(0, end));
    flags.remove_prefix(std::min(end + 1, flags.size()));
  }
  (void)server::parse_args(args);
  server::Config config;
  std::string error;
  if (!server::apply_toml(path, config, error) && error.empty()) __builtin_trap();
  return 0;
}
