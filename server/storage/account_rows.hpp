// What the SQLite and the PostgreSQL account stores read the same way: the columns of an
// account row, and a seat's result from a match's status and winners.
#pragma once

#include <cstdint>
#include <string>

#include "storage/account_store.hpp"

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

// The columns of a history entry, in history_from_row's order, over `match_accounts ma JOIN
// matches m`; both databases accept them.
inline constexpr const char* kHistoryColumns =
    "SELECT m.id, m.ruleset, m.status, m.winners, coalesce(m.ended_at, 0), "
    "m.seat_count, ma.seat, ma.rated, ma.rating_before, ma.rating_after "
    "FROM match_accounts ma JOIN matches m ON m.id = ma.match_id ";

// A history entry (without its opponents) from a row of kHistoryColumns; `Row` as for
// account_from_row, with null(i) and real(i).
template <class Row>
HistoryEntry history_from_row(const Row& row) {
  HistoryEntry e;
  e.match_id = row.integer(0);
  e.ruleset = row.text(1);
  e.status = row.text(2);
  const int64_t winners = row.null(3) ? -1 : row.integer(3);
  e.ended_ms = row.integer(4);
  e.seat = static_cast<int>(row.integer(6));
  e.result = seat_result(e.status, winners, e.seat, static_cast<int>(row.integer(5)));
  e.rated = row.boolean(7);
  if (!row.null(8)) e.rating_before = row.real(8);
  if (!row.null(9)) e.rating_after = row.real(9);
  return e;
}

// An account from a row of kAccountColumns. `Row` reads column i as integer(i), text(i) and
// boolean(i): each backend adapts its own row type (StatementRow, PgRow).
template <class Row>
AccountRecord account_from_row(const Row& row) {
  AccountRecord a;
  a.id = row.integer(0);
  a.name = row.text(1);
  a.password_hash = row.text(2);
  a.guest = row.boolean(3);
  a.deleted = row.boolean(4);
  a.created_ms = row.integer(5);
  a.role = row.text(6);
  return a;
}

}  // namespace duelhall::storage
