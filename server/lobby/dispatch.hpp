// Dispatch: a thin router from a ClientMessage to its room's handler (the lobby's in
// lobby_handlers.hpp, account_handlers.hpp and cluster_redirects.hpp, moderation's in
// moderation/moderation_handlers.hpp, the replays' in replays/replay_handlers.hpp, the pairing
// room's in pairing/pairing_handlers.hpp), with no
// feature logic of its own: it checks that the connection said Hello, that its session still
// holds and its cluster ticket is good, routes the command by one switch, and sends the typed
// answer (hall/call.hpp). Handlers never touch sockets: replies go to an outbox the session
// flushes; match commands are posted to the match, which answers from its strand.
#pragma once

#include <memory>

#include "accounts/account_commands.hpp"
#include "envelope.pb.h"
#include "hall/call.hpp"
#include "lobby/account_handlers.hpp"
#include "lobby/hub.hpp"
#include "net/outbox.hpp"

namespace duelhall::server {

class Dispatcher {
 public:
  explicit Dispatcher(Hub& hub) : hub_(hub) {}

  // Handles one message from `peer`; the reply (if not deferred) goes to `out`.
  void dispatch(const std::shared_ptr<Peer>& peer, ClientState& state, const ClientMessage& message,
                Outbox& out);
  // The connection is gone: stop spectating, leave the lobby feed, start the grace period.
  void disconnected(const Peer* peer, ClientState& state);

 private:
  // The room's handler that serves the command.
  Handled route(Call& call, const ClientMessage& message);
  // Sends the reply of a handled command (unless deferred).
  void answer(const std::shared_ptr<Peer>& peer, uint64_t request_id, const Handled& handled,
              ServerMessage& reply, Outbox& out);
  // A password command is hashing (account_handlers.hpp): the connection's next commands wait
  // their turn, and its reply, once hashed, comes back here to be answered before them.
  void hold(const std::shared_ptr<Peer>& peer, ClientState& state, const ClientMessage& message,
            Outbox& out);
  AccountHashed hashed_reply(Call& call);
  void hashed(const std::shared_ptr<Peer>& peer, ClientState& state, uint64_t request_id,
              accounts::ConnectionAccount account, const accounts::CommandOutcome& outcome,
              ServerMessage reply);

  Hub& hub_;
};

}  // namespace duelhall::server
