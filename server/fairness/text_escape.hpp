// Escaping for the line-oriented text formats (the match export, stored parameters): a text
// becomes one token without spaces or line breaks. Bytes below 0x21, '%', '&', '=' and 0x7f are
// written as %XX; other bytes (UTF-8 names included) stay as they are. The empty text is written
// as "-", and a text that is exactly "-" as "%2D", so every token is non-empty.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace duelhall::fairness {

std::string escape_token(std::string_view text);
// Null when the token holds a malformed escape.
std::optional<std::string> unescape_token(std::string_view token);

// Parameters as "name=value&name=value" with escaped names and values, in name order; the
// empty map is "-".
std::string encode_params(const std::map<std::string, std::string>& params);
std::optional<std::map<std::string, std::string>> decode_params(std::string_view text);

}  // namespace duelhall::fairness
