// Match records over the protocol: export and import requests, and duelhall-verify run on a
// record's text as a user would run it on a downloaded file.
#pragma once

#include <fstream>

#include "helpers.hpp"

namespace duelhall::testing {

inline ClientMessage export_match(uint64_t id) {
  ClientMessage m;
  m.mutable_export_match()->set_match_id(id);
  return m;
}

inline ClientMessage import_match(const std::string& record) {
  ClientMessage m;
  m.mutable_import_match()->set_record(record);
  return m;
}

inline ExitResult verify_file(const std::string& text) {
  const auto path = temp_data_dir("record").string() + ".txt";
  std::ofstream(path, std::ios::binary) << text;
  std::string command = std::string(DUELHALL_VERIFY) + " '" + path + "' 2>&1";
  ExitResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::filesystem::remove(path);
  return result;
}

}  // namespace duelhall::testing
