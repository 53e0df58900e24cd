// Writes view-diff test vectors for the browser client's TypeScript port of the apply side
// (clients/web/src/wire_diff.ts): successive views of every viewer of random games of every
// registered ruleset, each with the patch the C++ library makes between them, as JSON lines
// {"before":hex,"after":hex,"patch":hex}. Usage: duelhall_diff_vectors <games per ruleset>
// <max vectors per ruleset>.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "wire_diff.hpp"

namespace {

using duelhall::engine::Viewer;

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

void emit(const std::string& before, const std::string& after) {
  const std::string patch = duelhall::wire::make_patch(before, after);
  std::string check;
  if (!duelhall::wire::apply_patch(before, patch, check) || check != after) {
    std::fprintf(stderr, "the C++ library does not round-trip a patch\n");
    std::exit(1);
  }
  std::printf("{\"before\":\"%s\",\"after\":\"%s\",\"patch\":\"%s\"}\n", hex(before).c_str(),
              hex(after).c_str(), hex(patch).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 2;
  const int max_vectors = argc > 2 ? std::atoi(argv[2]) : 200;
  const auto registry = duelhall::engine::builtin_registry();
  for (const auto& info : registry.all()) {
    int written = 0;
    for (int game = 0; game < games && written < max_vectors; ++game) {
      duelhall::engine::Seed seed{};
      seed[0] = static_cast<uint8_t>(game + 1);
      auto created = registry.create(info.name, info.min_seats, seed, {});
      if (!created.state) continue;
      auto& state = *created.state;
      std::vector<Viewer> viewers{Viewer::spectator(), Viewer::omniscient()};
      for (int s = 0; s < state.num_seats(); ++s) viewers.push_back(Viewer::of_seat(s));
      std::vector<std::string> last;
      for (const auto& v : viewers) last.push_back(state.view(v));
      // A fixed linear congruential choice: the vectors only need variety, not fairness.
      uint64_t pick = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(game + 1);
      for (int step = 0; step < 2000 && !state.terminal() && written < max_vectors; ++step) {
        const auto seat = state.pending().first();
        const auto legal = state.legal_actions(seat);
        if (legal.empty()) break;
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        state.apply(seat, legal[(pick >> 33) % legal.size()]);
        for (size_t i = 0; i < viewers.size() && written < max_vectors; ++i) {
          std::string now = state.view(viewers[i]);
          if (now == last[i]) continue;
          emit(last[i], now);
          ++written;
          last[i] = std::move(now);
        }
      }
    }
  }
  return 0;
}
