// For random complete games of every registered ruleset, a client that starts from the first
// view and applies every diff holds each viewer's view byte for byte, at every step. Prints the
// diff figures (mean diff bytes, mean full view bytes) per ruleset.
#include <catch2/catch.hpp>
#include <iostream>
#include <map>

#include "views/random_games.hpp"
#include "wire_diff.hpp"

using duelhall::engine::Viewer;

TEST_CASE("applying every diff from the first view reproduces every viewer's view") {
  const auto registry = duelhall::engine::builtin_registry();
  REQUIRE_FALSE(registry.all().empty());
  for (const auto& info : registry.all()) {
    INFO("ruleset " << info.name);
    // Per viewer key (seat, or -1 spectator, -2 omniscient): the server's last view and the
    // client's copy rebuilt from diffs alone.
    std::map<int, std::string> server_view;
    std::map<int, std::string> client_view;
    size_t diffs = 0;
    size_t diff_bytes = 0;
    size_t view_bytes = 0;
    size_t player_diffs = 0;
    size_t player_diff_bytes = 0;
    size_t player_view_bytes = 0;
    duelhall::testing::play_random_games(
        registry, info, 40, 5000, [&](const duelhall::testing::ViewStep& step) {
          for (const Viewer& viewer : duelhall::testing::all_viewers(step.state)) {
            const int key = viewer.kind == Viewer::Kind::kSeat        ? viewer.seat
                            : viewer.kind == Viewer::Kind::kSpectator ? -1
                                                                      : -2;
            std::string now = step.state.view(viewer);
            if (step.step == 0) {
              server_view[key] = now;
              client_view[key] = now;  // the snapshot
              continue;
            }
            const std::string patch = duelhall::wire::make_patch(server_view[key], now);
            std::string rebuilt;
            INFO("step " << step.step << " viewer " << key);
            REQUIRE(duelhall::wire::apply_patch(client_view[key], patch, rebuilt));
            REQUIRE(rebuilt == now);
            ++diffs;
            diff_bytes += patch.size();
            view_bytes += now.size();
            if (key >= 0) {
              ++player_diffs;
              player_diff_bytes += patch.size();
              player_view_bytes += now.size();
            }
            client_view[key] = std::move(rebuilt);
            server_view[key] = std::move(now);
          }
        });
    REQUIRE(diffs > 0);
    const double mean_diff = static_cast<double>(player_diff_bytes) / player_diffs;
    const double mean_view = static_cast<double>(player_view_bytes) / player_diffs;
    std::cout << info.name << ": " << player_diffs << " seat diffs, mean diff " << mean_diff
              << " bytes, mean full view " << mean_view << " bytes ("
              << 100.0 * mean_diff / mean_view << "%); all viewers incl. spectator and omniscient: "
              << static_cast<double>(diff_bytes) / diffs << " / "
              << static_cast<double>(view_bytes) / diffs << " bytes\n";
  }
}
