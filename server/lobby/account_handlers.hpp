// The account commands on a connection (docs/accounts.md): served by server/accounts, with the
// password hashes on the hub's HashingPool, and the end of a session carried to every connection
// signed in with it (account_handlers.cpp).
#pragma once

#include <functional>
#include <optional>

#include "accounts/account_commands.hpp"
#include "hall/call.hpp"
#include "lobby/hub.hpp"

namespace duelhall::server {

// The connection's account (from a session, a guest token or a sign-in) becomes its player's
// (with the session it came with); without a change, a resumed player's own account becomes the
// connection's.
void bind_account(ClientState& state, bool changed);

// The connection's session was ended elsewhere (signed out, password changed, account
// deleted): BAD_SESSION, and the connection is a guest's from now on.
std::optional<Handled> refuse_ended_session(Hub& hub, Call& call);

// Where the outcome of a password command hashed on the pool goes, on the connection's strand.
using AccountHashed =
    std::function<void(accounts::ConnectionAccount account, const accounts::CommandOutcome& outcome,
                       ServerMessage reply)>;
// Serves an account command. The commands that hash a password run on the hub's HashingPool when
// it has one: BUSY when its queue is full, else later() and the outcome goes to `hashed`.
Handled handle_account(Hub& hub, Call& call, const ClientMessage& message, AccountHashed hashed);
// The outcome of an account command on the connection: its player, ignores, role, the other
// connections of the sessions it ended.
Handled apply_account(Hub& hub, Call& call, const accounts::CommandOutcome& outcome);

}  // namespace duelhall::server
