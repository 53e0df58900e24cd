// duelhall-loadgen: see `duelhall-loadgen --help`. The main thread sets up (asks the server for
// its rulesets), starts one io_context thread per shard, and times the phases: opening every
// match, a warm-up, the measured window, the stop.
#include <boost/asio/post.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "idle_connections.hpp"
#include "match_driver.hpp"
#include "shard_threads.hpp"
#include "ws_client.hpp"  // clients/common: the one synchronous setup query

using namespace duelhall;
using namespace duelhall::loadgen;
namespace net = boost::asio;

namespace {

// What the ruleset list costs a connection: without books, and with the played ruleset's book as
// a protocol 5 client asks for it (0 when it has none or the protocol is older).
struct ListBytes {
  size_t plain = 0;
  size_t with_book = 0;
};

// The ruleset to play and its seat count, as the server lists them.
bool choose_ruleset(const Options& o, Setup& setup, ListBytes& listed) {
  try {
    client::WsClient c;
    c.connect(o.host, o.port);
    const ServerMessage welcome = c.hello("loadgen");
    if (welcome.result() != OK) {
      std::cerr << "duelhall-loadgen: the server refused the Hello: "
                << ResultCode_Name(welcome.result()) << ": " << welcome.reason() << "\n";
      return false;
    }
    ClientMessage m;
    m.mutable_list_rulesets();
    const ServerMessage reply = c.request(std::move(m));
    if (reply.result() != OK) {
      std::cerr << "duelhall-loadgen: the server refused to list its rulesets: "
                << ResultCode_Name(reply.result()) << ": " << reply.reason() << "\n";
      return false;
    }
    listed.plain = reply.ByteSizeLong();
    for (const auto& r : reply.rulesets().rulesets()) {
      if (o.ruleset.empty() || r.name() == o.ruleset) {
        setup.ruleset = r.name();
        setup.seats = std::max(2u, r.min_seats());
        if (o.protocol >= 5 && r.has_phrase_book()) {
          ClientMessage book;
          book.mutable_list_rulesets()->add_phrases_of(r.name());
          const ServerMessage with_book = c.request(std::move(book));
          if (with_book.result() == OK) listed.with_book = with_book.ByteSizeLong();
        }
        return true;
      }
    }
    std::cerr << "duelhall-loadgen: the server has no ruleset '" << o.ruleset << "'\n";
  } catch (const std::exception& e) {
    std::cerr << "duelhall-loadgen: cannot reach the server: " << e.what() << "\n";
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (o.help) {
    std::cout << usage();
    return 0;
  }
  if (!o.error.empty()) {
    std::cerr << "duelhall-loadgen: " << o.error << "\n" << usage();
    return 2;
  }
  Setup setup;
  setup.pace = o.pace;
  setup.protocol = o.protocol;
  setup.interval = std::chrono::nanoseconds(static_cast<int64_t>(1e9 / o.rate));
  boost::system::error_code ec;
  setup.endpoint = {net::ip::make_address(o.host, ec), o.port};
  if (ec) {
    std::cerr << "duelhall-loadgen: --host needs an IP address\n";
    return 2;
  }
  if (o.connections > 0) return run_idle_connections(o, setup.endpoint);
  ListBytes listed;
  if (!choose_ruleset(o, setup, listed)) return 1;
  const std::string pace = o.pace == Pace::kFast   ? "as fast as possible"
                           : o.pace == Pace::kIdle ? "idle (nobody acts)"
                                                   : "paced at " + std::to_string(o.rate) +
                                                         " actions per match per second";
  std::printf("duelhall-loadgen: %s, %u matches of %u seats, %s, %u client thread(s)\n",
              setup.ruleset.c_str(), o.matches, setup.seats, pace.c_str(), o.threads);
  std::printf("ruleset list %zu bytes; with the %s phrase book %zu bytes (protocol 5, asked once)\n",
              listed.plain, setup.ruleset.c_str(), listed.with_book);
  // The bot matches: one connected seat, the engine's bot on the others.
  Setup bot_setup = setup;
  bot_setup.bot_seats = setup.seats - 1;
  bot_setup.bot_level = o.bot_level;
  if (o.bot_matches > 0) {
    std::printf("and %u matches against the %s bot (%u bot seat(s), no delay), paced alike\n",
                o.bot_matches, o.bot_level.c_str(), bot_setup.bot_seats);
  }
  const uint32_t slots = o.matches + o.bot_matches;

  const long rss_before = o.server_pid ? rss_kib(o.server_pid) : -1;
  Shared shared;
  std::vector<std::unique_ptr<Shard>> shards;
  for (uint32_t t = 0; t < o.threads; ++t) {
    shards.push_back(std::make_unique<Shard>());
    shards.back()->max_opening = std::max(1u, o.max_opening / o.threads);
  }
  for (uint32_t m = 0; m < slots; ++m) {
    Shard& shard = *shards[m % o.threads];
    const Setup& slot_setup = m < o.matches ? setup : bot_setup;
    shard.drivers.push_back(std::make_unique<MatchDriver>(shard, shared, slot_setup, o.seed + m));
    shard.waiting.push_back(shard.drivers.back().get());
  }

  // Opening.
  const auto opened_at = Clock::now();
  ShardThreads running;
  running.start(shards);
  while (shared.first_live + shared.failed < slots &&
         seconds_since(opened_at) < o.open_timeout_seconds) {
    sleep_for(0.02);
  }
  const double open_seconds = seconds_since(opened_at);
  const uint32_t opened = shared.first_live;
  const uint32_t live_after_open = shared.live;
  const long rss_after = o.server_pid ? rss_kib(o.server_pid) : -1;
  std::printf("opened %u of %u matches in %.2f s (%u failed), %u live\n", opened, slots,
              open_seconds, shared.failed.load(), live_after_open);
  std::fflush(stdout);  // a caller waiting for every load generator's opening reads this line
  if (!o.start_file.empty()) {
    const auto waited_from = Clock::now();
    std::error_code exists_error;
    while (!std::filesystem::exists(o.start_file, exists_error) &&
           seconds_since(waited_from) < o.open_timeout_seconds) {
      sleep_for(0.02);
    }
    std::printf("started after %.2f s of waiting for %s\n", seconds_since(waited_from),
                o.start_file.c_str());
  }

  // Warm-up and the measured window.
  sleep_for(o.warmup_seconds);
  const double server_cpu_start = o.server_pid ? cpu_seconds(o.server_pid) : -1;
  const double own_cpu_start = cpu_seconds(0);
  double load_start[1] = {0};
  getloadavg(load_start, 1);
  shared.recording = true;
  const auto window_start = Clock::now();
  sleep_for(o.duration_seconds);
  shared.recording = false;
  const double window = seconds_since(window_start);
  const double server_cpu = o.server_pid ? cpu_seconds(o.server_pid) - server_cpu_start : -1;
  const double own_cpu = cpu_seconds(0) - own_cpu_start;
  double load_end[1] = {0};
  getloadavg(load_end, 1);
  const uint32_t live_at_end = shared.live;
  // Memory again after play: each seat's held updates (kept for reconnects) have filled up.
  const long rss_end = o.server_pid ? rss_kib(o.server_pid) : -1;

  // Stop: close every connection, then let the threads finish.
  shared.stopping = true;
  for (auto& shard : shards) {
    net::post(shard->io, [s = shard.get()] {
      for (auto& d : s->drivers) d->stop();
    });
  }
  running.stop(shards, std::chrono::seconds(1));

  Stats total;
  Stats bots;
  for (auto& shard : shards) {
    total.merge(shard->stats);
    bots.merge(shard->bot_stats);
  }
  const double actions_per_s = window > 0 ? static_cast<double>(total.actions) / window : 0;
  const size_t samples = total.latency_us.size();
  const double p50 = percentile(total.latency_us, 50) / 1000.0;
  const double p99 = percentile(total.latency_us, 99) / 1000.0;
  const double p999 = percentile(total.latency_us, 99.9) / 1000.0;
  auto mean = [](uint64_t sum, uint64_t n) { return n ? static_cast<double>(sum) / n : 0.0; };
  const double diff_mean = mean(total.diff_bytes, total.diffs);
  const double view_mean = mean(total.view_bytes, total.views);
  const double ratio = view_mean > 0 ? 100.0 * diff_mean / view_mean : 0;
  double rss_per_match = -1;
  if (rss_before >= 0 && rss_after >= 0 && live_after_open > 0) {
    rss_per_match = static_cast<double>(rss_after - rss_before) / live_after_open;
    std::printf("server RSS %.1f MiB before, %.1f MiB with %u live matches: %.2f KiB per match\n",
                rss_before / 1024.0, rss_after / 1024.0, live_after_open, rss_per_match);
  }
  double rss_end_per_match = -1;
  if (rss_before >= 0 && rss_end >= 0 && live_at_end > 0) {
    rss_end_per_match = static_cast<double>(rss_end - rss_before) / live_at_end;
    std::printf(
        "server RSS %.1f MiB after the window with %u live matches: %.2f KiB per match "
        "(finished matches still listed count too)\n",
        rss_end / 1024.0, live_at_end, rss_end_per_match);
  }
  std::printf("measured %.2f s: %llu actions, %.0f actions/s, %llu refused, %llu matches ended\n",
              window, static_cast<unsigned long long>(total.actions), actions_per_s,
              static_cast<unsigned long long>(total.refused),
              static_cast<unsigned long long>(total.matches_finished));
  std::printf(
      "latency, action sent to the opponent's update received: p50 %.3f ms, p99 %.3f ms, "
      "p99.9 %.3f ms (%zu samples)\n",
      p50, p99, p999, samples);
  std::printf(
      "diff %.1f bytes mean (update frame %.1f bytes: events %.1f, legal codes %.1f, labels "
      "%.1f), full view %.1f bytes mean, diff/view %.2f %% (%llu diffs); snapshot view %.1f bytes "
      "mean\n",
      diff_mean, mean(total.update_bytes, total.diffs), mean(total.event_bytes, total.diffs),
      mean(total.legal_bytes, total.diffs), mean(total.label_bytes, total.diffs), view_mean, ratio,
      static_cast<unsigned long long>(total.diffs),
      mean(total.snapshot_view_bytes, total.snapshots));
  // CPU time per action tells what the machine could do alone, whatever else shares it.
  const double per_action = total.actions ? 1e6 / static_cast<double>(total.actions) : 0;
  // Without --server-pid the server's CPU is unknown (not a difference of two -1s).
  char server_part[64] = "server unknown (no --server-pid)";
  if (o.server_pid) {
    std::snprintf(server_part, sizeof server_part, "server %.1f us (%.0f%% of a core)",
                  server_cpu * per_action, 100 * server_cpu / window);
  }
  std::printf(
      "CPU per action: %s, load generator %.1f us (%.0f%% of a core); "
      "machine load average %.1f -> %.1f\n",
      server_part, own_cpu * per_action, 100 * own_cpu / window, load_start[0], load_end[0]);
  const double bot_moves_per_s = window > 0 ? static_cast<double>(bots.bot_moves) / window : 0;
  const double bot_actions_per_s = window > 0 ? static_cast<double>(bots.actions) / window : 0;
  if (o.bot_matches > 0) {
    std::printf(
        "bot matches (%u, %s bot; not in the figures above): the bot's moves %.0f/s, the load "
        "generator's seat %.0f actions/s, %llu refused, %llu matches ended\n",
        o.bot_matches, o.bot_level.c_str(), bot_moves_per_s, bot_actions_per_s,
        static_cast<unsigned long long>(bots.refused),
        static_cast<unsigned long long>(bots.matches_finished));
  }
  std::printf("live matches at the end %u; slots failed %u; patches not applying %llu\n",
              live_at_end, shared.failed.load(),
              static_cast<unsigned long long>(total.bad_patches));
  std::printf(
      "RESULT ruleset=%s matches=%u pace=%s rate=%g opened=%u open_s=%.2f actions_per_s=%.0f "
      "p50_ms=%.3f "
      "p99_ms=%.3f diff_bytes=%.2f view_bytes=%.1f diff_pct=%.2f rss_before_kib=%ld "
      "rss_after_kib=%ld rss_per_match_kib=%.2f live_end=%u failed=%u refused=%llu "
      "bad_patches=%llu rss_end_per_match_kib=%.2f server_cpu_us_per_action=%.1f "
      "loadgen_cpu_us_per_action=%.1f "
      "load_avg=%.1f p999_ms=%.3f update_bytes=%.1f event_bytes=%.1f legal_bytes=%.1f "
      "label_bytes=%.1f server_cpu_pct=%.0f bot_matches=%u bot_level=%s bot_moves_per_s=%.0f "
      "bot_actions_per_s=%.0f bot_matches_ended=%llu\n",
      setup.ruleset.c_str(), o.matches,
      o.pace == Pace::kFast ? "fast" : (o.pace == Pace::kPaced ? "paced" : "idle"),
      o.pace == Pace::kPaced ? o.rate : 0, opened, open_seconds, actions_per_s, p50, p99, diff_mean,
      view_mean, ratio, rss_before, rss_after, rss_per_match, live_at_end, shared.failed.load(),
      static_cast<unsigned long long>(total.refused),
      static_cast<unsigned long long>(total.bad_patches), rss_end_per_match,
      o.server_pid ? server_cpu * per_action : -1.0, own_cpu * per_action, load_end[0], p999,
      mean(total.update_bytes, total.diffs), mean(total.event_bytes, total.diffs),
      mean(total.legal_bytes, total.diffs), mean(total.label_bytes, total.diffs),
      o.server_pid ? 100 * server_cpu / window : -1.0, o.bot_matches, o.bot_level.c_str(),
      bot_moves_per_s, bot_actions_per_s, static_cast<unsigned long long>(bots.matches_finished));
  return shared.failed > 0 || opened < slots ? 1 : 0;
}
