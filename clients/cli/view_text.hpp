// Readable text for what the server sends: a ruleset's View decoded by name through protobuf's
// generated descriptor pool (so the client knows no ruleset), and event texts with seat
// references (@N) replaced by the seats' display names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace duelhall::cli {

// The view as readable lines (one per message: "round 3 | phase 2", the players one block each,
// lists in brackets, enums, phases and cards by name: value_names.hpp); when the message is unknown to this build or the bytes do
// not parse, a line saying so with the byte count.
std::string view_text(const std::string& view_message, std::string_view bytes);

// "@1 attacked @0" -> "bob (@1) attacked ann (@0)"; references to unknown seats stay as they are.
std::string with_names(std::string_view event, const std::vector<std::string>& seat_names);

}  // namespace duelhall::cli
