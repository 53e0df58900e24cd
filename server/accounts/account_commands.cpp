#include "accounts/account_commands.hpp"

#include <algorithm>

#include "accounts/credentials.hpp"
#include "storage/store_error.hpp"

namespace duelhall::accounts {
namespace {

CommandOutcome fail(ResultCode code, std::string reason) {
  return {code, std::move(reason), false};
}
CommandOutcome from(const Answer& answer) {
  CommandOutcome out{answer.code, answer.reason, false};
  out.retry_after_ms = answer.retry_after_ms;
  out.attempts_left = answer.attempts_left;
  return out;
}

uint32_t page_size(uint32_t asked) {
  return asked == 0 ? kDefaultPage : std::min(asked, kMaxPage);
}

bool registered(const ConnectionAccount& c) {
  return c.account && !c.account->guest;
}

// The account a query names, or the connection's own for an empty name.
std::optional<AccountView> subject(AccountService& service, const ConnectionAccount& connection,
                                   const std::string& name) {
  if (name.empty()) return registered(connection) ? connection.account : std::nullopt;
  return service.find(name);
}

CommandOutcome signed_in(ConnectionAccount& connection, const SessionGrant& result,
                         ServerMessage& reply) {
  if (result.answer.code != OK) return from(result.answer);
  connection.account = result.account;
  connection.session_hash = result.session_hash;
  auto* out = reply.mutable_signed_in();
  fill_account(result.account, *out->mutable_account());
  out->set_session_token(result.session_token);
  out->set_expires_ms(static_cast<uint64_t>(result.expires_ms));
  return {OK, {}, true};
}

void fill_profile(AccountService& service, const AccountView& account, Profile& out) {
  fill_account(account, *out.mutable_account());
  for (const auto& r : service.store().ratings(account.id)) {
    RulesetRating* rating = out.add_ratings();
    rating->set_ruleset(r.ruleset);
    rating->set_rating(r.rating);
    rating->set_deviation(r.deviation);
    rating->set_volatility(r.volatility);
    rating->set_games(static_cast<uint32_t>(r.games));
    rating->set_provisional(service.provisional(r.deviation));
  }
  for (const auto& entry : service.store().history(account.id, kDefaultPage, std::nullopt)) {
    fill_history_entry(entry, *out.add_history());
  }
}

}  // namespace

void fill_account(const AccountView& account, AccountInfo& out) {
  out.set_id(static_cast<uint64_t>(account.id));
  out.set_name(account.name);
  out.set_guest(account.guest);
}

void fill_history_entry(const storage::HistoryEntry& entry, HistoryEntry& out) {
  out.set_match_id(static_cast<uint64_t>(entry.match_id));
  out.set_ruleset(entry.ruleset);
  out.set_seat(entry.seat);
  out.set_result(entry.result);
  out.set_rated(entry.rated);
  if (entry.rating_before) out.set_rating_before(*entry.rating_before);
  if (entry.rating_after) out.set_rating_after(*entry.rating_after);
  out.set_ended_ms(static_cast<uint64_t>(entry.ended_ms));
  for (const auto& o : entry.opponents) {
    HistoryOpponent* opponent = out.add_opponents();
    opponent->set_seat(o.seat);
    opponent->set_name(o.name);
  }
}

bool hashes_password(const ClientMessage& message) {
  switch (message.command_case()) {
    case ClientMessage::kRegisterAccount:
    case ClientMessage::kSignIn:
    case ClientMessage::kChangePassword:
    case ClientMessage::kDeleteAccount:
      return true;
    default:
      return false;
  }
}

void set_hints(const CommandOutcome& outcome, ServerMessage& reply) {
  if (outcome.retry_after_ms != 0) reply.set_retry_after_ms(outcome.retry_after_ms);
  if (outcome.attempts_left != 0) reply.set_attempts_left(outcome.attempts_left);
}

bool is_account_command(const ClientMessage& message) {
  switch (message.command_case()) {
    case ClientMessage::kRegisterAccount:
    case ClientMessage::kSignIn:
    case ClientMessage::kSignOut:
    case ClientMessage::kChangePassword:
    case ClientMessage::kDeleteAccount:
    case ClientMessage::kGetProfile:
    case ClientMessage::kGetHistory:
    case ClientMessage::kGetLeaderboard:
      return true;
    default:
      return false;
  }
}

namespace {

CommandOutcome hello_from_store(AccountService* service, ConnectionAccount& connection,
                                const Hello& hello) {
  if (!hello.session_token().empty()) {
    if (!service) return fail(ACCOUNTS_DISABLED, "this server offers no accounts");
    auto account = service->from_session(hello.session_token());
    if (!account || account->guest) {
      return fail(BAD_SESSION, "the session is unknown, expired or revoked: sign in again");
    }
    connection.account = account;
    connection.session_hash = session_hash(hello.session_token());
    return {OK, {}, true};
  }
  // A guest may not go by an account's name (in any case): that would pass for the account.
  // Such hits are counted per address, since they tell which names are accounts.
  if (service && !hello.display_name().empty()) {
    if (auto refused = service->guest_name_refused(hello.display_name(), connection.address)) {
      return from(*refused);
    }
  }
  if (!hello.guest_token().empty() && service) {
    if (auto guest = service->guest(hello.guest_token(), connection.address)) {
      connection.account = guest;
      return {OK, {}, true};
    }
  }
  return {};
}

CommandOutcome serve_from_store(AccountService* service, ConnectionAccount& connection,
                                const ClientMessage& message, ServerMessage& reply) {
  if (!service) return fail(ACCOUNTS_DISABLED, "this server offers no accounts");
  switch (message.command_case()) {
    case ClientMessage::kRegisterAccount: {
      if (registered(connection)) return fail(ALREADY_SIGNED_IN, "sign out first");
      std::optional<AccountId> guest;
      if (connection.account && connection.account->guest) guest = connection.account->id;
      const auto& r = message.register_account();
      return signed_in(connection,
                       service->register_account(r.name(), r.password(), connection.address, guest),
                       reply);
    }
    case ClientMessage::kSignIn: {
      if (registered(connection)) return fail(ALREADY_SIGNED_IN, "sign out first");
      const auto& r = message.sign_in();
      return signed_in(connection, service->sign_in(r.name(), r.password(), connection.address),
                       reply);
    }
    case ClientMessage::kSignOut: {
      if (!registered(connection)) return fail(SIGN_IN_REQUIRED, "not signed in");
      service->sign_out(connection.session_hash);
      CommandOutcome out{OK, {}, true};
      out.ended = {EndedSessions::kOne, connection.account->id, connection.session_hash};
      connection.account.reset();
      connection.session_hash.clear();
      return out;
    }
    case ClientMessage::kChangePassword: {
      if (!registered(connection)) return fail(SIGN_IN_REQUIRED, "sign in first");
      const auto& r = message.change_password();
      CommandOutcome out =
          from(service->change_password(connection.account->id, r.old_password(), r.new_password(),
                                        connection.session_hash, connection.address));
      if (out.code == OK) {
        out.ended = {EndedSessions::kAllButOne, connection.account->id, connection.session_hash};
      }
      return out;
    }
    case ClientMessage::kDeleteAccount: {
      if (!registered(connection)) return fail(SIGN_IN_REQUIRED, "sign in first");
      const Answer answer = service->delete_account(
          connection.account->id, message.delete_account().password(), connection.address);
      if (answer.code != OK) return from(answer);
      CommandOutcome out{OK, {}, true};
      out.ended = {EndedSessions::kAll, connection.account->id, connection.session_hash};
      connection.account.reset();
      connection.session_hash.clear();
      return out;
    }
    case ClientMessage::kGetProfile: {
      auto account = subject(*service, connection, message.get_profile().name());
      if (!account) return fail(UNKNOWN_ACCOUNT, "no such account");
      fill_profile(*service, *account, *reply.mutable_profile());
      return {};
    }
    case ClientMessage::kGetHistory: {
      const auto& r = message.get_history();
      auto account = subject(*service, connection, r.name());
      if (!account) return fail(UNKNOWN_ACCOUNT, "no such account");
      std::optional<int64_t> before;
      if (r.before() != 0) before = static_cast<int64_t>(std::min<uint64_t>(r.before(), INT64_MAX));
      History* out = reply.mutable_history();
      for (const auto& e : service->store().history(account->id, page_size(r.limit()), before)) {
        fill_history_entry(e, *out->add_entries());
      }
      return {};
    }
    case ClientMessage::kGetLeaderboard: {
      const auto& r = message.get_leaderboard();
      if (r.ruleset().size() > kMaxFieldBytes) return fail(FIELD_TOO_LONG, "ruleset too long");
      Leaderboard* out = reply.mutable_leaderboard();
      out->set_ruleset(r.ruleset());
      for (const auto& row :
           service->store().leaderboard(r.ruleset(), service->config().provisional_deviation,
                                        r.offset(), page_size(r.limit()))) {
        LeaderboardEntry* e = out->add_entries();
        e->set_rank(static_cast<uint32_t>(row.rank));
        e->set_name(row.name);
        e->set_rating(row.rating);
        e->set_deviation(row.deviation);
        e->set_games(static_cast<uint32_t>(row.games));
      }
      return {};
    }
    default:
      return fail(UNKNOWN_COMMAND, "not an account command");
  }
}

// The accounts' store could not be reached or could not write (PostgreSQL down, a full disk):
// nothing was changed, and the caller is told to try again rather than that the server failed.
// (The outage itself is logged by the matches waiting for the store and shown by /readyz.)
CommandOutcome store_unavailable() {
  CommandOutcome out = fail(STORAGE_UNAVAILABLE,
                            "the server's store cannot be reached now: nothing was changed, try "
                            "again shortly");
  out.retry_after_ms = kStoreRetryMs;
  return out;
}

}  // namespace

CommandOutcome hello_account(AccountService* service, ConnectionAccount& connection,
                             const Hello& hello) {
  ConnectionAccount before = connection;
  try {
    return hello_from_store(service, connection, hello);
  } catch (const storage::StoreUnavailableError&) {
    connection = std::move(before);
    return store_unavailable();
  }
}

CommandOutcome serve_account_command(AccountService* service, ConnectionAccount& connection,
                                     const ClientMessage& message, ServerMessage& reply) {
  ConnectionAccount before = connection;
  try {
    return serve_from_store(service, connection, message, reply);
  } catch (const storage::StoreUnavailableError&) {
    connection = std::move(before);
    reply.Clear();
    return store_unavailable();
  }
}

}  // namespace duelhall::accounts
