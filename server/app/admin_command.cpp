#include "app/admin_command.hpp"

#include <filesystem>
#include <memory>

#include "accounts/moderation_service.hpp"
#include "app/recovery.hpp"
#include "config/config.hpp"
#include "storage/sqlite_account_store.hpp"
#include "storage_pg/postgres_account_store.hpp"

namespace duelhall::server {

int run_admin_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const char* usage =
      "usage: duelhall admin grant NAME [--role admin|moderator] [--data DIR | --database URL | "
      "--config FILE]\n"
      "       duelhall admin revoke NAME [--data DIR | --database URL | --config FILE]\n";
  if (args.size() < 2 || (args[0] != "grant" && args[0] != "revoke")) {
    err << usage;
    return 2;
  }
  const bool grant = args[0] == "grant";
  const std::string& name = args[1];
  std::string role_text = grant ? "admin" : "";
  std::vector<std::string> rest;
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--role" && grant && i + 1 < args.size()) {
      role_text = args[++i];
    } else {
      rest.push_back(args[i]);
    }
  }
  const auto role = accounts::parse_role(role_text);
  if (!role || (grant && *role == accounts::Role::kNone)) {
    err << "duelhall admin: the role is admin or moderator, not '" << role_text << "'\n";
    return 2;
  }
  ParsedArgs parsed = parse_args(rest);
  if (!parsed.error.empty()) {
    err << "duelhall admin: " << parsed.error << "\n" << usage;
    return 2;
  }
  try {
    std::unique_ptr<storage::AccountStore> account_store;
    storage::ModerationStore* moderation_store = nullptr;
    if (!parsed.config.database.empty()) {
      // A cluster's accounts: the shared PostgreSQL database (--database), as the server uses.
      auto store = std::make_unique<storage::PostgresAccountStore>(parsed.config.database);
      moderation_store = store.get();
      account_store = std::move(store);
    } else {
      const auto path = std::filesystem::path(parsed.config.data_dir) / "duelhall.db";
      if (!std::filesystem::exists(path)) {
        err << "duelhall admin: no store at " << path.string()
            << " (start the server once with this data folder, and register the account)\n";
        return 1;
      }
      auto store = std::make_unique<storage::SqliteAccountStore>(path.string());
      moderation_store = store.get();
      account_store = std::move(store);
    }
    accounts::AccountService accounts(*account_store, {}, unix_now_ms);
    accounts::ModerationService moderation(accounts, *moderation_store, unix_now_ms);
    const auto answer = moderation.set_role("command line", name, *role);
    if (answer.code != OK) {
      err << "duelhall admin: " << answer.reason << "\n";
      return 1;
    }
  } catch (const std::exception& e) {
    err << "duelhall admin: " << e.what() << "\n";
    return 1;
  }
  if (grant) {
    out << name << " is now " << (*role == accounts::Role::kAdmin ? "an " : "a ")
        << accounts::role_name(*role) << "\n";
  } else {
    out << name << " has no role now\n";
  }
  return 0;
}

}  // namespace duelhall::server
