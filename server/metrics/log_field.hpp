// A text from a client (a name, a moderator's reason, a close reason) made safe to put in a log
// line: control characters (a newline would forge a line), '"' and '\' are escaped as in a JSON
// string (\n, \", \\, \u001b), so the field stays on its line in the text log and inside its
// string in the JSON log. Other bytes, UTF-8 included, stay as they are.
#pragma once

#include <string>
#include <string_view>

namespace duelhall::metrics {

inline std::string log_field(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace duelhall::metrics
