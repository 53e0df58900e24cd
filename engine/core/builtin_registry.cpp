// The one place that lists the project's rulesets. Each ruleset folder provides a
// `register_<name>(Registry&)` function.
#include "core/registry.hpp"

namespace duelhall::engine {

Registry builtin_registry() {
  Registry registry;
  return registry;
}

}  // namespace duelhall::engine
