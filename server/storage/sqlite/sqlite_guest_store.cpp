// SqliteAccountStore's guest lookups and the sweep of unused guests (docs/accounts.md).
#include "storage/sqlite/sqlite_account_store.hpp"
#include "storage/unused_guests.hpp"

namespace duelhall::storage {

std::optional<AccountId> SqliteAccountStore::find_guest(std::string_view guest_hash) {
  std::lock_guard lock(mutex_);
  Statement find(*db_, "SELECT id FROM accounts WHERE guest_hash = ?");
  if (find.bind_blob(1, guest_hash).step()) return find.column_int(0);
  return std::nullopt;
}

size_t SqliteAccountStore::delete_unused_guests(int64_t created_before_ms) {
  std::lock_guard lock(mutex_);
  Statement sweep(*db_, unused_guests_sql("?"));
  sweep.bind(1, created_before_ms).run();
  return static_cast<size_t>(db_->changes());
}

}  // namespace duelhall::storage
