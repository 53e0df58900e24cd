// Dispatch: one switch on the ClientMessage's command, calling a small handler per command that
// returns a typed result code and fills the reply. Handlers never touch sockets: replies go to
// an outbox the session flushes; match commands are posted to the match, which answers from its
// strand (the handler returns `deferred`).
#pragma once

#include <memory>
#include <optional>

#include "accounts/account_commands.hpp"
#include "envelope.pb.h"
#include "hall/call.hpp"
#include "lobby/hub.hpp"
#include "net/outbox.hpp"

namespace duelhall::server {

// The connection's account (from a session, a guest token or a sign-in) becomes its player's
// (with the session it came with); without a change, a resumed player's own account becomes the
// connection's.
void bind_account(ClientState& state, bool changed);

class Dispatcher {
 public:
  explicit Dispatcher(Hub& hub) : hub_(hub) {}

  // Handles one message from `peer`; the reply (if not deferred) goes to `out`.
  void dispatch(const std::shared_ptr<Peer>& peer, ClientState& state, const ClientMessage& message,
                Outbox& out);
  // The connection is gone: stop spectating, leave the lobby feed, start the grace period.
  void disconnected(const Peer* peer, ClientState& state);

 private:
  Handled handle_hello(Call& call, const Hello& hello);
  Handled handle_list_rulesets(Call& call);
  Handled handle_list_matches(Call& call);
  Handled handle_subscribe_lobby(Call& call, const SubscribeLobby& request);
  Handled handle_create_match(Call& call, const CreateMatch& request);
  Handled handle_join_match(Call& call, const JoinMatch& request);
  Handled handle_leave_match(Call& call, const LeaveMatch& request);
  Handled handle_spectate(Call& call, const Spectate& request);
  Handled handle_fill_bots(Call& call, const FillWithBots& request);
  Handled handle_action(Call& call, const SubmitAction& request);
  Handled handle_resync(Call& call, const Resync& request);
  Handled handle_resign(Call& call, const Resign& request);
  Handled handle_chat(Call& call, const Chat& request);
  Handled handle_ping(Call& call, const Ping& request);
  // Accounts (server/accounts/account_commands.cpp serves them; dispatch_accounts.cpp). The
  // commands that hash a password run on the hub's HashingPool when it has one: BUSY when its
  // queue is full, else the reply comes from the connection's strand once the hash is done.
  Handled handle_account(Call& call, const ClientMessage& message);
  Handled hash_elsewhere(Call& call, const ClientMessage& message);
  void hashed(const std::shared_ptr<Peer>& peer, ClientState& state, uint64_t request_id,
              accounts::ConnectionAccount account, const accounts::CommandOutcome& outcome,
              ServerMessage reply);
  // The outcome of an account command on the connection: its player, ignores, role, the other
  // connections of the sessions it ended.
  Handled apply_account(Call& call, const accounts::CommandOutcome& outcome);
  // A command that came while the connection's password command was hashing waits its turn.
  void hold(const std::shared_ptr<Peer>& peer, ClientState& state, const ClientMessage& message,
            Outbox& out);
  // The connection's session was ended elsewhere (signed out, password changed, account
  // deleted): BAD_SESSION, and the connection is a guest's from now on.
  std::optional<Handled> refuse_ended_session(Call& call);
  // Sends the reply of a handled command (unless deferred).
  void answer(const std::shared_ptr<Peer>& peer, uint64_t request_id, const Handled& handled,
              ServerMessage& reply, Outbox& out);
  // Cluster (dispatch_cluster.cpp, docs/cluster.md): the ticket that came with a command, the
  // placement of a new match on another node, and the redirect to the node hosting a match.
  Handled check_ticket(Call& call, const ClientMessage& message);
  std::optional<Handled> place_elsewhere(Call& call);
  Handled not_here(Call& call, uint64_t match_id, bool spectate, int seat);
  // A Hello that resumes matches none of which this node hosts (their node died, another
  // adopted them): REDIRECT to the node that holds the first one's lease, or CLUSTER_UNAVAILABLE
  // while none does (an adoption under way); nullopt to serve it here.
  std::optional<Handled> resume_elsewhere(Call& call, const Hello& hello);

  Hub& hub_;
};

}  // namespace duelhall::server
