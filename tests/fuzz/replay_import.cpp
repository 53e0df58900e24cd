// The imported replay file: arbitrary text read as a `duelhall-match 1` record, and the check
// duelhall-verify runs on it. Each must answer with a reason, never crash; a record that reads
// must write back to text that reads to the same record.
#include "core/version.hpp"
#include "fairness/record_format.hpp"
#include "fairness/verify.hpp"
#include "support.hpp"

using namespace duelhall;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto record = fairness::read_record(text, error);
  if (record) {
    std::string again_error;
    const auto again = fairness::read_record(fairness::write_record(*record), again_error);
    if (!again || !(*again == *record)) __builtin_trap();
  } else if (error.empty()) {
    __builtin_trap();  // a refusal must say why
  }
  const auto verdict = fairness::verify_export(fuzz::registry(), text, engine::kEngineVersion);
  if (!verdict.ok() && verdict.reason.empty()) __builtin_trap();
  return 0;
}
