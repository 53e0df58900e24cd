// Any action code from any seat in any reachable state of any ruleset: random play to a
// fuzzer-chosen depth, then fuzzed codes. A refused action must leave the state byte-identical
// and say why; an accepted one must keep the state serializable and round-trippable.
#include "support.hpp"

using namespace duelhall;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  auto state = fuzz::new_match(in);
  if (!state) return 0;
  engine::Seed pick_seed{};
  pick_seed[0] = in.ConsumeIntegral<uint8_t>();
  engine::Rng pick(pick_seed);
  fuzz::play_random(*state, in.ConsumeIntegralInRange<int>(0, 400), pick);

  std::vector<engine::Event> events;
  while (in.remaining_bytes() > 0) {
    const engine::Seat seat = in.ConsumeIntegralInRange<int>(-1, state->num_seats());
    // Mostly codes near the legal ones (a listed kind with fuzzed arguments), sometimes any code.
    uint64_t code = in.ConsumeIntegral<uint64_t>();
    if (in.ConsumeBool() && seat >= 0 && seat < state->num_seats()) {
      const auto legal = state->legal_actions(seat);
      if (!legal.empty()) {
        const auto& base = legal[in.ConsumeIntegralInRange<size_t>(0, legal.size() - 1)];
        code = (code & ~uint64_t{0xff}) | base.kind;
        if (in.ConsumeBool()) code = base.code() ^ (code & 0xff00);
      }
    }
    const std::string before = state->serialize();
    events.clear();
    const auto result = state->apply(seat, engine::Action::from_code(code), &events);
    if (!result.ok()) {
      if (state->serialize() != before) __builtin_trap();  // a refusal changed the state
      if (result.reason.empty()) __builtin_trap();         // a refusal must say why
      continue;
    }
    const std::string after = state->serialize();
    auto copy = fuzz::registry().deserialize(after);
    if (!copy || copy->serialize() != after) __builtin_trap();
    (void)state->view(engine::Viewer::spectator());
  }
  return 0;
}
