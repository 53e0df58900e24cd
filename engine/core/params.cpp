#include "core/params.hpp"

#include <charconv>
#include <stdexcept>

namespace duelhall::engine {

std::string ParamSpec::default_text() const {
  return kind == Kind::kInt ? std::to_string(default_int) : choices.at(0);
}

int64_t Params::get_int(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::out_of_range("no parameter " + name);
  int64_t v = 0;
  std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return v;
}

const std::string& Params::get_choice(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::out_of_range("no parameter " + name);
  return it->second;
}

bool Params::resolve(const std::vector<ParamSpec>& specs,
                     const std::map<std::string, std::string>& raw, Params& out,
                     std::string& error) {
  Params result;
  for (const auto& [name, value] : raw) {
    bool known = false;
    for (const auto& spec : specs) known = known || spec.name == name;
    if (!known) {
      error = "unknown parameter '" + name + "'";
      return false;
    }
  }
  for (const auto& spec : specs) {
    auto it = raw.find(spec.name);
    if (it == raw.end()) {
      result.values_[spec.name] = spec.default_text();
      continue;
    }
    const std::string& text = it->second;
    if (spec.kind == ParamSpec::Kind::kInt) {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size()) {
        error = "parameter '" + spec.name + "' must be a whole number";
        return false;
      }
      if (v < spec.min || v > spec.max) {
        error = "parameter '" + spec.name + "' must be from " + std::to_string(spec.min) + " to " +
                std::to_string(spec.max);
        return false;
      }
      result.values_[spec.name] = std::to_string(v);
    } else {
      bool allowed = false;
      for (const auto& c : spec.choices) allowed = allowed || c == text;
      if (!allowed) {
        error = "parameter '" + spec.name + "' must be one of:";
        for (const auto& c : spec.choices) error += " " + c;
        return false;
      }
      result.values_[spec.name] = text;
    }
  }
  out = std::move(result);
  return true;
}

}  // namespace duelhall::engine
