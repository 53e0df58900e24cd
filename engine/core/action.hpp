// An action is a small structured value: a kind and up to seven small arguments. Its stable
// compact encoding is one 64-bit code (kind in the low byte, argument i in byte i + 1), which is
// what travels on the wire and what the match log stores. Each ruleset documents its kinds and
// argument meanings in its proto file.
#pragma once

#include <array>
#include <compare>
#include <cstdint>

namespace duelhall::engine {

struct Action {
  uint8_t kind = 0;
  std::array<uint8_t, 7> args{};

  static constexpr Action make(uint8_t kind, uint8_t a0 = 0, uint8_t a1 = 0, uint8_t a2 = 0,
                               uint8_t a3 = 0, uint8_t a4 = 0, uint8_t a5 = 0, uint8_t a6 = 0) {
    return Action{kind, {a0, a1, a2, a3, a4, a5, a6}};
  }

  constexpr uint64_t code() const {
    uint64_t c = kind;
    for (int i = 0; i < 7; ++i) c |= static_cast<uint64_t>(args[i]) << (8 * (i + 1));
    return c;
  }

  static constexpr Action from_code(uint64_t code) {
    Action a;
    a.kind = static_cast<uint8_t>(code & 0xff);
    for (int i = 0; i < 7; ++i) a.args[i] = static_cast<uint8_t>((code >> (8 * (i + 1))) & 0xff);
    return a;
  }

  constexpr uint8_t arg(int i) const { return args[i]; }

  // Ordered by code, so that sorted legal-action lists are sorted by their wire encoding.
  constexpr std::strong_ordering operator<=>(const Action& o) const { return code() <=> o.code(); }
  constexpr bool operator==(const Action& o) const { return code() == o.code(); }
};

}  // namespace duelhall::engine
