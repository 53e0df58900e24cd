// Writes view patch test vectors, one per line: "<before hex> <patch hex> <after hex>", from
// random games of every registered ruleset (every seat's and the spectator's views), for the
// JavaScript applier's test (apply_patch_check.mjs).
#include <cstdio>
#include <string>

#include "core/bot.hpp"
#include "core/registry.hpp"
#include "wire_diff.hpp"

namespace {

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out.empty() ? "-" : out;
}

}  // namespace

int main() {
  using namespace duelhall::engine;
  const Registry registry = builtin_registry();
  for (const RulesetInfo& info : registry.all()) {
    for (uint64_t game = 1; game <= 3; ++game) {
      auto created = registry.create(info.name, info.min_seats, seed_from_number(game), {});
      if (!created.state) return 1;
      State& state = *created.state;
      Rng rng(seed_from_number(game + 100));
      std::vector<Viewer> viewers{Viewer::spectator()};
      for (int s = 0; s < state.num_seats(); ++s) viewers.push_back(Viewer::of_seat(s));
      std::vector<std::string> last;
      for (const Viewer& v : viewers) last.push_back(state.view(v));
      while (!state.terminal()) {
        const Seat seat = state.pending().first();
        auto legal = state.legal_actions(seat);
        drop_avoided(legal, info.resign_kinds);
        state.apply(seat, legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        for (size_t i = 0; i < viewers.size(); ++i) {
          const std::string now = state.view(viewers[i]);
          std::printf("%s %s %s\n", hex(last[i]).c_str(),
                      hex(duelhall::wire::make_patch(last[i], now)).c_str(), hex(now).c_str());
          last[i] = now;
        }
      }
    }
  }
  return 0;
}
