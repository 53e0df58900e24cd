// Registers Young Jedi: Duel of the Fates as "young_jedi".
#pragma once

#include "core/registry.hpp"

namespace duelhall::engine::young_jedi {

void register_young_jedi(Registry& registry);

}  // namespace duelhall::engine::young_jedi
