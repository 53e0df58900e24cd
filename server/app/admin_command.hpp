// `duelhall admin grant NAME [--role admin|moderator]` and `duelhall admin revoke NAME`: roles on
// the accounts of the configured data folder (or the --database PostgreSQL), without a server (the
// first admin is made here; docs/moderation.md). A running server sees the change at the account's
// next command: roles are read from the store, not cached.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace duelhall::server {

// `args` are those after "admin"; the rest of the flags (--data, --database, --config) are the
// server's.
// Returns the exit status: 0 done, 1 refused or failed, 2 bad usage.
int run_admin_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace duelhall::server
