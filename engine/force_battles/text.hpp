// Text building for labels, refusals and roll names (events are phrases: phrases.hpp). Appending
// parts avoids `"literal" + std::string` temporaries, which GCC 12 at -O3 misreports under
// -Wrestrict.
#pragma once

#include <string>
#include <string_view>

namespace duelhall::engine::force_battles {

inline void append_part(std::string& s, std::string_view v) {
  s += v;
}
inline void append_part(std::string& s, int v) {
  s += std::to_string(v);
}

template <typename... Parts>
std::string text(const Parts&... parts) {
  std::string s;
  (append_part(s, parts), ...);
  return s;
}

}  // namespace duelhall::engine::force_battles
