#include "stats.hpp"

#include <unistd.h>
#include <algorithm>
#include <fstream>
#include <sstream>

namespace duelhall::loadgen {

void Stats::merge(const Stats& o) {
  actions += o.actions;
  refused += o.refused;
  latency_us.insert(latency_us.end(), o.latency_us.begin(), o.latency_us.end());
  diffs += o.diffs;
  diff_bytes += o.diff_bytes;
  update_bytes += o.update_bytes;
  event_bytes += o.event_bytes;
  legal_bytes += o.legal_bytes;
  label_bytes += o.label_bytes;
  views += o.views;
  view_bytes += o.view_bytes;
  snapshots += o.snapshots;
  snapshot_view_bytes += o.snapshot_view_bytes;
  matches_finished += o.matches_finished;
  bad_patches += o.bad_patches;
  connection_errors += o.connection_errors;
  bot_moves += o.bot_moves;
}

double percentile(std::vector<uint32_t>& samples, double p) {
  if (samples.empty()) return 0;
  // Nearest rank: the smallest sample with at least p% of the samples at or below it.
  size_t rank = static_cast<size_t>(p / 100.0 * static_cast<double>(samples.size()) + 0.999999);
  rank = std::clamp<size_t>(rank, 1, samples.size());
  std::nth_element(samples.begin(), samples.begin() + static_cast<long>(rank - 1), samples.end());
  return samples[rank - 1];
}

long rss_kib(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      long kib = -1;
      fields >> kib;
      return kib;
    }
  }
  return -1;
}

double cpu_seconds(long pid) {
  std::ifstream in(pid ? "/proc/" + std::to_string(pid) + "/stat" : std::string("/proc/self/stat"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are
  // fields 14 and 15, in clock ticks.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int n = 3; n <= 15 && fields >> field; ++n) {
    if (n >= 14) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace duelhall::loadgen
