// The account commands on a connection (docs/accounts.md): served by server/accounts, with the
// password hashes on the hub's HashingPool, and the end of a session carried to every connection
// signed in with it.
#include <spdlog/spdlog.h>

#include "accounts/hashing_pool.hpp"
#include "lobby/dispatch.hpp"
#include "metrics/server_metrics.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

// Commands a connection may send while its password command hashes; more are refused.
constexpr size_t kMaxHeld = 32;

Handled with_hints(Handled handled, const accounts::CommandOutcome& outcome) {
  handled.retry_after_ms = outcome.retry_after_ms;
  handled.attempts_left = outcome.attempts_left;
  return handled;
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

std::optional<Handled> Dispatcher::refuse_ended_session(Call& call) {
  const auto& account = call.state.account.account;
  if (!call.state.player || !account || account->guest) return std::nullopt;
  // Hub::end_sessions takes the account off the player first, then closes the connection: a
  // command already read in between finds the player without it.
  if (call.state.player->account().id == account->id) return std::nullopt;
  call.state.account = accounts::ConnectionAccount{call.state.account.address, {}, {}};
  reload_ignores(call);
  return Handled::fail(BAD_SESSION, "the session was ended: sign in again");
}

Handled Dispatcher::handle_account(Call& call, const ClientMessage& message) {
  if (hub_.hashing() && hub_.accounts() && accounts::hashes_password(message)) {
    return hash_elsewhere(call, message);
  }
  const auto outcome =
      accounts::serve_account_command(hub_.accounts(), call.state.account, message, call.reply);
  return apply_account(call, outcome);
}

Handled Dispatcher::apply_account(Call& call, const accounts::CommandOutcome& outcome) {
  // A banned account signs in (the password was right) but gets no session.
  auto banned = outcome.code == OK ? refuse_signed_in(call) : std::nullopt;
  if (outcome.account_changed || banned) {
    bind_account(call.state, true);
    reload_ignores(call);
  }
  if (outcome.ended.kind != accounts::EndedSessions::kNone) {
    hub_.end_sessions(outcome.ended, call.peer.get());
  }
  if (banned) return *banned;
  if (outcome.code != OK) {
    return with_hints(Handled::fail(outcome.code, outcome.reason), outcome);
  }
  // A registration signs its player in, as SignIn does: both answer with SignedIn.
  if (call.reply.has_signed_in()) metrics::server_metrics().logins.add();
  return Handled::ok();
}

Handled Dispatcher::hash_elsewhere(Call& call, const ClientMessage& message) {
  accounts::HashingPool& pool = *hub_.hashing();
  accounts::AccountService* service = hub_.accounts();
  ClientState* state = &call.state;  // lives as long as the connection, which `peer` holds
  auto job = [this, service, state, peer = call.peer, message,
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
    peer->post([this, state, peer, request_id = message.request_id(), account = std::move(account),
                outcome = std::move(outcome), reply = std::move(reply)]() mutable {
      hashed(peer, *state, request_id, std::move(account), outcome, std::move(reply));
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

void Dispatcher::hashed(const std::shared_ptr<Peer>& peer, ClientState& state, uint64_t request_id,
                        accounts::ConnectionAccount account,
                        const accounts::CommandOutcome& outcome, ServerMessage reply) {
  state.account = std::move(account);
  Outbox out;
  Call call{peer, state, request_id, reply};
  const Handled handled = apply_account(call, outcome);
  answer(peer, request_id, handled, reply, out);
  state.hashing = false;
  // The commands that waited, in order, until one of them hashes again.
  while (!state.hashing && !state.held.empty()) {
    const ClientMessage next = std::move(state.held.front());
    state.held.pop_front();
    dispatch(peer, state, next, out);
  }
  out.flush();
}

void Dispatcher::hold(const std::shared_ptr<Peer>& peer, ClientState& state,
                      const ClientMessage& message, Outbox& out) {
  if (state.held.size() < kMaxHeld) {
    state.held.push_back(message);
    return;
  }
  ServerMessage reply;
  Handled refused = Handled::fail(RATE_LIMITED, "too many commands while a password is checked");
  answer(peer, message.request_id(), refused, reply, out);
}

}  // namespace duelhall::server
