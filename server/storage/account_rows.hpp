// What the SQLite and the PostgreSQL account stores read the same way: the columns of an
// account row, and a seat's result from a match's status and winners.
#pragma once

#include <cstdint>
#include <string>

namespace duelhall::storage {

// The SELECT of one account row, in AccountRecord's order; both databases accept it.
inline constexpr const char* kAccountColumns =
    "SELECT id, coalesce(name, ''), coalesce(password_hash, ''), guest_hash IS NOT NULL, "
    "deleted_at IS NOT NULL, created_at, coalesce(role, '') FROM accounts ";

// "win", "loss", "draw" or "none" for `seat`; `winners` is the seat bitmask, or -1 when none was
// recorded.
inline std::string seat_result(const std::string& status, int64_t winners, int seat, int seats) {
  if (status != "finished" || winners < 0) return "none";
  const int64_t all = (int64_t{1} << seats) - 1;
  if (winners == 0 || winners == all) return "draw";
  return (winners >> seat) & 1 ? "win" : "loss";
}

}  // namespace duelhall::storage
