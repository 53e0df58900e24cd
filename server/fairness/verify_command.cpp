#include "fairness/verify_command.hpp"

#include <fstream>

#include "core/version.hpp"
#include "fairness/verify.hpp"

namespace duelhall::fairness {
namespace {

constexpr std::streamsize kMaxFileBytes = 256 << 20;  // far beyond any real match

}  // namespace

int run_verify_command(const engine::Registry& registry, std::span<const std::string_view> args,
                       std::ostream& out, std::ostream& err) {
  if (args.size() != 1 || args[0] == "--help") {
    err << "usage: duelhall-verify FILE\n"
           "Checks an exported match: the seed against its published commitment, every step,\n"
           "and every shuffle and roll against a replay from the revealed seed.\n";
    return 2;
  }
  const std::string path(args[0]);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "duelhall-verify: cannot open " << path << "\n";
    return 2;
  }
  std::string text(static_cast<size_t>(kMaxFileBytes) + 1, '\0');
  in.read(text.data(), kMaxFileBytes + 1);
  if (in.gcount() > kMaxFileBytes) {
    err << "duelhall-verify: " << path << " is larger than any match record\n";
    return 2;
  }
  text.resize(static_cast<size_t>(in.gcount()));
  const VerifyResult result = verify_export(registry, text, engine::kEngineVersion);
  if (result.ok()) {
    out << path
        << ": verified: the seed matches its commitment and every step, shuffle and "
           "roll replays exactly\n";
    if (!result.server_ending.empty()) {
      out << path << ": the match did not end by the rules but by the server's decision: '"
          << result.server_ending
          << "' (the record's word: a clock or a resignation is not replayed)\n";
    }
    return 0;
  }
  out << path << ": NOT verified (" << to_string(result.failure) << "): " << result.reason << "\n";
  return 1;
}

}  // namespace duelhall::fairness
