#include "core/serialize_config.hpp"

namespace duelhall::engine {

void write_config(ByteWriter& out, const MatchConfig& config) {
  out.str(config.ruleset);
  out.varint(static_cast<uint64_t>(config.seats));
  out.raw(std::string_view(reinterpret_cast<const char*>(config.seed.data()), config.seed.size()));
  out.varint(config.params.values().size());
  for (const auto& [name, value] : config.params.values()) {
    out.str(name);
    out.str(value);
  }
  out.varint(config.seat_options.size());
  for (const auto& option : config.seat_options) out.str(option);
}

MatchConfig read_config(ByteReader& in, std::map<std::string, std::string>& raw_params) {
  MatchConfig config;
  config.ruleset = in.str();
  config.seats = static_cast<int>(in.bounded(kMaxSeats));
  auto seed = in.raw(config.seed.size());
  std::copy(seed.begin(), seed.end(), config.seed.begin());
  size_t n = in.bounded(256);
  for (size_t i = 0; i < n; ++i) {
    std::string name = in.str();
    raw_params[name] = in.str();
  }
  config.seat_options.resize(in.bounded(kMaxSeats));
  for (auto& option : config.seat_options) option = in.str();
  return config;
}

}  // namespace duelhall::engine
