// Match records over the protocol: export and import requests, duelhall-verify run on a
// record's text as a user would run it on a downloaded file, and the live views a replay must
// reproduce.
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

// Each viewer's tracked view of match `id` at step `seq`, waiting for it to get there: what a
// replay of that step from the same perspective must reproduce byte for byte.
inline std::vector<std::string> views_at(const std::vector<WsClient*>& viewers, uint64_t id,
                                         uint64_t seq) {
  std::vector<std::string> at;
  for (WsClient* c : viewers) {
    REQUIRE(c->wait_until([&] {
      auto* t = c->tracker().find(id);
      return t && t->seq >= seq && !t->view.empty();
    }));
    REQUIRE(c->tracker().find(id)->seq == seq);
    at.push_back(c->tracker().find(id)->view);
  }
  return at;
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
