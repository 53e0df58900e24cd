// The account commands on a connection (docs/accounts.md): served by server/accounts, with the
// password hashes on the hub's HashingPool, and the end of a session carried to every connection
// signed in with it.
#include <spdlog/spdlog.h>

#include "accounts/hashing_pool.hpp"
#include "lobby/account_handlers.hpp"
#include "metrics/server_metrics.hpp"
#include "moderation/moderation_handlers.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

Handled with_hints(Handled handled, const accounts::CommandOutcome& outcome) {
  handled.retry_after_ms = outcome.retry_after_ms;
  handled.attempts_left = outcome.attempts_left;
  return handled;
}

Handled hash_elsewhere(Hub& hub, Call& call, const ClientMessage& message, AccountHashed hashed) {
  accounts::HashingPool& pool = *hub.hashing();
  accounts::AccountService* service = hub.accounts();
  auto job = [service, hashed = std::move(hashed), peer = call.peer, message,
              account = call.state.account]() mutable {
    ServerMessage reply;
    accounts::CommandOutcome outcome;
    try {
      outcome = accounts::serve_account_command(service, account, message, reply);
    } catch (const std::exception& e) {
      spdlog::error("connection {}: account command failed: {}", peer->peer_id(), e.what());
      reply.Clear();
      outcome = {INTERNAL_ERROR, "the server could not carry this out", false};
    }
    peer->post([hashed = std::move(hashed), account = std::move(account),
                outcome = std::move(outcome), reply = std::move(reply)]() mutable {
      hashed(std::move(account), outcome, std::move(reply));
    });
  };
  if (!pool.submit(std::move(job))) {
    Handled busy = Handled::fail(BUSY, "the server is busy checking passwords: try again shortly");
    busy.retry_after_ms = pool.retry_after_ms();
    return busy;
  }
  call.state.hashing = true;
  return Handled::later();
}

}  // namespace

void bind_account(ClientState& state, bool changed) {
  if (!state.player) return;
  if (!changed) {
    const Player::Account bound = state.player->account();
    if (bound.id != 0) {
      state.account.account = accounts::AccountView{bound.id, bound.name, bound.guest};
      state.account.session_hash = bound.session_hash;
    }
    return;
  }
  Player::Account account;
  if (state.account.account) {
    account = {state.account.account->id, state.account.account->name, state.account.account->guest,
               state.account.session_hash};
  }
  state.player->set_account(std::move(account));
}

std::optional<Handled> refuse_ended_session(Hub& hub, Call& call) {
  const auto& account = call.state.account.account;
  if (!call.state.player || !account || account->guest) return std::nullopt;
  // Hub::end_sessions takes the account off the player first, then closes the connection: a
  // command already read in between finds the player without it.
  if (call.state.player->account().id == account->id) return std::nullopt;
  call.state.account = accounts::ConnectionAccount{call.state.account.address, {}, {}};
  reload_ignores(hub, call);
  return Handled::fail(BAD_SESSION, "the session was ended: sign in again");
}

Handled handle_account(Hub& hub, Call& call, const ClientMessage& message, AccountHashed hashed) {
  if (hub.hashing() && hub.accounts() && accounts::hashes_password(message)) {
    return hash_elsewhere(hub, call, message, std::move(hashed));
  }
  const auto outcome =
      accounts::serve_account_command(hub.accounts(), call.state.account, message, call.reply);
  return apply_account(hub, call, outcome);
}

Handled apply_account(Hub& hub, Call& call, const accounts::CommandOutcome& outcome) {
  // A banned account signs in (the password was right) but gets no session.
  auto banned = outcome.code == OK ? refuse_signed_in(hub, call) : std::nullopt;
  if (outcome.account_changed || banned) {
    bind_account(call.state, true);
    reload_ignores(hub, call);
  }
  if (outcome.ended.kind != accounts::EndedSessions::kNone) {
    hub.end_sessions(outcome.ended, call.peer.get());
  }
  if (banned) return *banned;
  if (outcome.code != OK) {
    return with_hints(Handled::fail(outcome.code, outcome.reason), outcome);
  }
  // A registration signs its player in, as SignIn does: both answer with SignedIn.
  if (call.reply.has_signed_in()) metrics::server_metrics().logins.add();
  return Handled::ok();
}

}  // namespace duelhall::server
