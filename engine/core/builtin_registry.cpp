// The one place that lists the project's rulesets. Each ruleset folder provides a
// `register_<name>(Registry&)` function.
#include "core/registry.hpp"
#include "force_battles/force_battles.hpp"

namespace duelhall::engine {

Registry builtin_registry() {
  Registry registry;
  force_battles::register_force_battles(registry);
  return registry;
}

}  // namespace duelhall::engine
