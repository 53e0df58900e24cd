// Arbitrary bytes deserialised as a match state: either a typed DecodeError or a state that
// serializes back to bytes that decode to the same state.
#include "core/bytes.hpp"
#include "support.hpp"

using namespace duelhall;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<engine::State> state;
  try {
    state = fuzz::registry().deserialize(bytes);
  } catch (const engine::DecodeError&) {
    return 0;
  }
  if (!state) return 0;
  const std::string again = state->serialize();
  std::unique_ptr<engine::State> copy;
  try {
    copy = fuzz::registry().deserialize(again);
  } catch (const engine::DecodeError&) {
    __builtin_trap();  // what serialize() wrote must decode
  }
  if (!copy || copy->serialize() != again) __builtin_trap();
  return 0;
}
