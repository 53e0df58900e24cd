#include "app/stores.hpp"

#include <filesystem>

#include "storage/sqlite/sqlite_account_store.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "storage/postgres/postgres_account_store.hpp"
#include "storage/postgres/postgres_match_store.hpp"

namespace duelhall::server {
namespace {

// The account store of either backend, which is also its moderation and deck store.
template <typename AccountAndModerationStore>
void set_accounts(Stores& stores, std::unique_ptr<AccountAndModerationStore> store) {
  stores.moderation = store.get();
  stores.decks = store.get();
  stores.tournaments = store.get();
  stores.accounts = std::move(store);
}

}  // namespace

Stores open_stores(const Config& config, bool prune) {
  Stores stores;
  if (!config.database.empty()) {
    stores.where = storage::redact_url(config.database);
    stores.matches = std::make_unique<storage::PostgresMatchStore>(config.database);
    set_accounts(stores, std::make_unique<storage::PostgresAccountStore>(config.database));
    return stores;
  }
  if (config.storage == "sqlite" || prune) {
    stores.where = (std::filesystem::path(config.data_dir) / "duelhall.db").string();
    storage::StoreOptions options;
    if (config.storage_sync == "normal") options.sync = storage::StoreOptions::Sync::kNormal;
    stores.matches = std::make_unique<storage::SqliteMatchStore>(stores.where, options);
    // Accounts live in the match store's file.
    set_accounts(stores, std::make_unique<storage::SqliteAccountStore>(stores.where));
    return stores;
  }
  stores.where = "memory";
  set_accounts(stores, std::make_unique<storage::SqliteAccountStore>(":memory:"));
  return stores;
}

}  // namespace duelhall::server
