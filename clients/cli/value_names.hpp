// Names for the numbers in a ruleset's view: cards and phases arrive as numbers on the wire
// (compact, and the engine's own ids), and a player reads "hand [7♥ K♣ Joker]" and "phase
// action step", not "hand [20 37 53]" and "phase 3".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace google::protobuf {
class FieldDescriptor;
}

namespace duelhall::cli {

// The name of `value` in field `f` of a view, or nullopt when the number is only a number. A
// field named `phase` takes the name of that value in the package's `Phase` enum where the
// ruleset's proto declares one (a new ruleset with one needs nothing here); card fields are
// named by the engine's own namers, the ones that write the action labels.
std::optional<std::string> value_name(const google::protobuf::FieldDescriptor& f, uint64_t value);

}  // namespace duelhall::cli
