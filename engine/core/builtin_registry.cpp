// The one place that lists the project's rulesets. Each ruleset folder provides a
// `register_<name>(Registry&)` function.
#include "core/registry.hpp"
#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine {

Registry builtin_registry() {
  Registry registry;
  jedi_duel::register_jedi_duel(registry);
  return registry;
}

}  // namespace duelhall::engine
