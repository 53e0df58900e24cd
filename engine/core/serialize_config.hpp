// The config header that opens every serialized state and every exported match.
#pragma once

#include "core/bytes.hpp"
#include "core/state.hpp"

namespace duelhall::engine {

void write_config(ByteWriter& out, const MatchConfig& config);
// Reads the header's raw fields; the registry resolves the parameters afterwards.
MatchConfig read_config(ByteReader& in, std::map<std::string, std::string>& raw_params);

}  // namespace duelhall::engine
