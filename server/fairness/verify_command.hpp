// The `duelhall-verify FILE` command, apart from its main() so that tests can run it against a
// registry of their own: prints the verdict and returns the exit status (0 verified, 1 not
// verified, 2 usage or file error).
#pragma once

#include <ostream>
#include <span>
#include <string_view>

#include "core/registry.hpp"

namespace duelhall::fairness {

int run_verify_command(const engine::Registry& registry, std::span<const std::string_view> args,
                       std::ostream& out, std::ostream& err);

}  // namespace duelhall::fairness
