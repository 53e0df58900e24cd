// PostgresAccountStore's guest lookups and the sweep of unused guests (docs/accounts.md).
#include "storage/unused_guests.hpp"
#include "storage/postgres/postgres_account_store.hpp"

namespace duelhall::storage {

std::optional<AccountId> PostgresAccountStore::find_guest(std::string_view guest_hash) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult found =
      db_->query("SELECT id FROM accounts WHERE guest_hash = $1", PgParams().add_bytes(guest_hash));
  if (found.rows() == 0) return std::nullopt;
  return found.integer(0, 0);
}

size_t PostgresAccountStore::delete_unused_guests(int64_t created_before_ms) {
  std::lock_guard lock(mutex_);
  db_->ensure_open();
  const PgResult swept = db_->query(unused_guests_sql("$1"), PgParams().add(created_before_ms));
  return static_cast<size_t>(swept.affected());
}

}  // namespace duelhall::storage
