// Event text building. Appending parts avoids `"literal" + std::string` temporaries, which
// GCC 12 at -O3 misreports under -Wrestrict.
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

// Seats appear as @N in event texts; clients substitute display names.
inline std::string at(int seat) {
  return text("@", seat);
}

}  // namespace duelhall::engine::force_battles
