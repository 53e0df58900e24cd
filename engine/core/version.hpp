// The engine's version, bound into every match's seed commitment and export. Bump it whenever a
// change can make a recorded match replay differently (a rule, the generator, sampling), so a
// verifier knows which engine a record needs and an old record is never judged by new rules.
#pragma once

#include <string_view>

namespace duelhall::engine {

inline constexpr std::string_view kEngineVersion = "duelhall-engine/0.2.0";

}  // namespace duelhall::engine
