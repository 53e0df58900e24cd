// The one place that lists the project's rulesets. Each ruleset folder provides a
// `register_<name>(Registry&)` function.
#include "core/registry.hpp"
#include "force_battles/force_battles.hpp"
#include "jedi_duel/jedi_duel.hpp"
#include "young_jedi/register.hpp"

namespace duelhall::engine {

Registry builtin_registry() {
  Registry registry;
  jedi_duel::register_jedi_duel(registry);
  force_battles::register_force_battles(registry);
  young_jedi::register_young_jedi(registry);
  return registry;
}

}  // namespace duelhall::engine
