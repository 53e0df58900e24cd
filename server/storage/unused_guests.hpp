// The SQL both account stores share to find unused guest accounts: a guest (guest_hash set)
// created before the cutoff (the first parameter) that no match seat, ban, mute, report or
// ignore names. Bounded to a batch so one sweep holds the database briefly.
#pragma once

#include <string>

namespace duelhall::storage {

// `param` is the placeholder of the cutoff ("?" for SQLite, "$1" for PostgreSQL).
inline std::string unused_guests_sql(const std::string& param) {
  return "DELETE FROM accounts WHERE id IN (SELECT a.id FROM accounts a "
         "WHERE a.guest_hash IS NOT NULL AND a.created_at < " +
         param +
         " AND NOT EXISTS (SELECT 1 FROM match_accounts m WHERE m.account_id = a.id)"
         " AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.account_id = a.id)"
         " AND NOT EXISTS (SELECT 1 FROM mutes u WHERE u.account_id = a.id)"
         " AND NOT EXISTS (SELECT 1 FROM reports r"
         "   WHERE r.reporter_account = a.id OR r.target_account = a.id)"
         " AND NOT EXISTS (SELECT 1 FROM ignores i WHERE i.account_id = a.id OR i.ignored_id = "
         "a.id)"
         " LIMIT 10000)";
}

}  // namespace duelhall::storage
