// The view diff, both sides of it:
//  - the client's side: an arbitrary patch applied to an arbitrary view must fail cleanly or
//    produce bytes (never read out of bounds);
//  - the server's side: make-then-apply between two arbitrary byte strings, and between two views
//    of a real match of any ruleset (possibly altered by the fuzzer), must reproduce the second.
#include "support.hpp"
#include "wire_diff.hpp"

using namespace duelhall;

namespace {

void require_round_trip(const std::string& before, const std::string& after) {
  const std::string patch = wire::make_patch(before, after);
  std::string rebuilt;
  if (!wire::apply_patch(before, patch, rebuilt)) __builtin_trap();
  if (rebuilt != after) __builtin_trap();
}

engine::Viewer take_viewer(FuzzedDataProvider& in, int seats) {
  const int who = in.ConsumeIntegralInRange<int>(-2, seats - 1);
  if (who == -2) return engine::Viewer::omniscient();
  if (who == -1) return engine::Viewer::spectator();
  return engine::Viewer::of_seat(who);
}

// Flips a few fuzzer-chosen bytes: a view that is no longer one the engine would write.
void alter(FuzzedDataProvider& in, std::string& bytes) {
  const int flips = in.ConsumeIntegralInRange<int>(0, 3);
  for (int i = 0; i < flips && !bytes.empty(); ++i) {
    bytes[in.ConsumeIntegralInRange<size_t>(0, bytes.size() - 1)] ^=
        static_cast<char>(in.ConsumeIntegral<uint8_t>());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: {  // an arbitrary patch on an arbitrary view
      const std::string before = in.ConsumeRandomLengthString(4096);
      const std::string patch = in.ConsumeRemainingBytesAsString();
      std::string after;
      (void)wire::apply_patch(before, patch, after);
      break;
    }
    case 1: {  // make-then-apply between arbitrary bytes
      const std::string before = in.ConsumeRandomLengthString(4096);
      const std::string after = in.ConsumeRemainingBytesAsString();
      require_round_trip(before, after);
      break;
    }
    default: {  // make-then-apply between two views of one real match
      auto state = fuzz::new_match(in);
      if (!state) return 0;
      engine::Rng pick(fuzz::take_seed(in));
      const engine::Viewer viewer = take_viewer(in, state->num_seats());
      fuzz::play_random(*state, in.ConsumeIntegralInRange<int>(0, 300), pick);
      std::string before = state->view(viewer);
      fuzz::play_random(*state, in.ConsumeIntegralInRange<int>(0, 20), pick);
      std::string after = state->view(viewer);
      alter(in, before);
      alter(in, after);
      require_round_trip(before, after);
      // The patch a client holding the other view would get, applied to a stale view.
      std::string stale;
      (void)wire::apply_patch(after, wire::make_patch(before, after), stale);
      break;
    }
  }
  return 0;
}
