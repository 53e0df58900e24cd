// duelhall-verify FILE: the verdict on an exported match (see fairness/verify.hpp).
#include <iostream>
#include <string_view>
#include <vector>

#include "core/registry.hpp"
#include "fairness/verify_command.hpp"

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  return duelhall::fairness::run_verify_command(duelhall::engine::builtin_registry(), args,
                                                std::cout, std::cerr);
}
