// Basic vocabulary shared by every ruleset: seats, seat sets, viewers.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

namespace duelhall::engine {

using Seat = int;
inline constexpr int kMaxSeats = 8;

// A set of seats as a bitmask: bit i is seat i.
class SeatMask {
 public:
  constexpr SeatMask() = default;
  constexpr explicit SeatMask(uint32_t bits) : bits_(bits) {}
  static constexpr SeatMask only(Seat seat) { return SeatMask(1u << seat); }
  static constexpr SeatMask first_n(int n) { return SeatMask((1u << n) - 1u); }

  constexpr bool has(Seat seat) const { return seat >= 0 && seat < 32 && (bits_ >> seat) & 1u; }
  constexpr void add(Seat seat) { bits_ |= 1u << seat; }
  constexpr void remove(Seat seat) { bits_ &= ~(1u << seat); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int count() const { return std::popcount(bits_); }
  constexpr uint32_t bits() const { return bits_; }
  // Lowest seat in the set, or -1 when empty.
  constexpr Seat first() const { return bits_ == 0 ? -1 : std::countr_zero(bits_); }
  constexpr bool operator==(const SeatMask&) const = default;

 private:
  uint32_t bits_ = 0;
};

// Who is looking. A seat sees its own hidden cards; a spectator sees only what is public;
// the omniscient viewer (tests, finished-match replays) sees everything.
struct Viewer {
  enum class Kind : uint8_t { kSeat, kSpectator, kOmniscient };
  Kind kind = Kind::kSpectator;
  Seat seat = -1;

  static constexpr Viewer of_seat(Seat s) { return {Kind::kSeat, s}; }
  static constexpr Viewer spectator() { return {Kind::kSpectator, -1}; }
  static constexpr Viewer omniscient() { return {Kind::kOmniscient, -1}; }

  constexpr bool is_seat(Seat s) const { return kind == Kind::kSeat && seat == s; }
  constexpr bool is_omniscient() const { return kind == Kind::kOmniscient; }
  // True when this viewer may see what is private to `owner`.
  constexpr bool sees_private_of(Seat owner) const { return is_omniscient() || is_seat(owner); }
  constexpr bool operator==(const Viewer&) const = default;
};

std::string to_string(const Viewer& viewer);

}  // namespace duelhall::engine
