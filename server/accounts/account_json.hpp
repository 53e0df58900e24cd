// The accounts' HTTP API: profiles, match histories, leaderboards and the session's own account,
// as JSON (docs/accounts.md lists the endpoints). Pure: the HTTP session hands over the request's
// method, target and Authorization header and sends back what this returns.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "accounts/account_service.hpp"

namespace duelhall::accounts {

struct JsonAnswer {
  int status = 200;
  std::string body;
  // DELETE /api/session: the session it ended (SHA-256 of its token) and its account, whose live
  // connections the server then ends too.
  std::string ended_session_hash{};
  AccountId ended_account = 0;
};

// nullopt: `target` is not under /api/accounts, /api/leaderboard, /api/me or /api/session.
std::optional<JsonAnswer> answer_accounts_api(AccountService* service, std::string_view method,
                                              std::string_view target,
                                              std::string_view authorization);

// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);

}  // namespace duelhall::accounts
