#include "app/admin_command.hpp"

#include <charconv>
#include <filesystem>
#include <memory>

#include "app/recovery.hpp"
#include "config/config.hpp"
#include "moderation/moderation_service.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"
#include "storage/postgres/postgres_account_store.hpp"

namespace duelhall::server {
namespace {

// `duelhall admin unban`: the way back in for a host whose own address or account was banned.
// A running server sees the change within ModerationService::kReloadMs.
int lift_bans(accounts::ModerationService& moderation, const std::string& target, std::ostream& out,
              std::ostream& err) {
  std::vector<int64_t> ids;
  int64_t id = 0;
  const auto [end, ec] = std::from_chars(target.data(), target.data() + target.size(), id);
  if (ec == std::errc() && end == target.data() + target.size()) {
    ids.push_back(id);
  } else {
    ids = moderation.bans_on(target);
  }
  size_t lifted = 0;
  for (int64_t ban : ids) {
    if (moderation.unban("command line", accounts::Role::kAdmin, ban) ==
        accounts::UnbanOutcome::kLifted) {
      ++lifted;
    }
  }
  if (lifted == 0) {
    err << "duelhall admin: no ban in force on " << target << "\n";
    return 1;
  }
  out << lifted << (lifted == 1 ? " ban" : " bans") << " on " << target << " lifted\n";
  return 0;
}

}  // namespace

int run_admin_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const char* usage =
      "usage: duelhall admin grant NAME [--role admin|moderator] [--data DIR | --database URL | "
      "--config FILE]\n"
      "       duelhall admin revoke NAME [--data DIR | --database URL | --config FILE]\n"
      "       duelhall admin unban BAN_ID|ADDRESS|ACCOUNT [--data DIR | --database URL | "
      "--config FILE]\n";
  if (args.size() < 2 || (args[0] != "grant" && args[0] != "revoke" && args[0] != "unban")) {
    err << usage;
    return 2;
  }
  const bool grant = args[0] == "grant";
  const bool unban = args[0] == "unban";
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
    if (unban) return lift_bans(moderation, name, out, err);
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
