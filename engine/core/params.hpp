// Ruleset parameters: each ruleset declares its parameters as data (name, kind, default, range)
// and the registry resolves a host's raw values against those declarations.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace duelhall::engine {

struct ParamSpec {
  enum class Kind : uint8_t { kInt, kChoice };
  std::string name;
  std::string description;
  Kind kind = Kind::kInt;
  int64_t default_int = 0;
  int64_t min = 0;
  int64_t max = 0;
  std::vector<std::string> choices;  // kChoice: allowed values; the first is the default

  static ParamSpec integer(std::string name, std::string description, int64_t def, int64_t min,
                           int64_t max) {
    return {std::move(name), std::move(description), Kind::kInt, def, min, max, {}};
  }
  static ParamSpec choice(std::string name, std::string description,
                          std::vector<std::string> choices) {
    return {std::move(name), std::move(description), Kind::kChoice, 0, 0, 0, std::move(choices)};
  }
  std::string default_text() const;
};

// Resolved parameter values: every declared parameter present and valid.
class Params {
 public:
  Params() = default;
  int64_t get_int(const std::string& name) const;
  const std::string& get_choice(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }
  bool operator==(const Params&) const = default;

  // Fills defaults, rejects unknown names, bad numbers, out-of-range values and unknown choices.
  // On failure returns false and says why in `error`.
  static bool resolve(const std::vector<ParamSpec>& specs,
                      const std::map<std::string, std::string>& raw, Params& out,
                      std::string& error);

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace duelhall::engine
