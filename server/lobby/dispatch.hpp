// Dispatch: one switch on the ClientMessage's command, calling a small handler per command that
// returns a typed result code and fills the reply. Handlers never touch sockets: replies go to
// an outbox the session flushes; match commands are posted to the match, which answers from its
// strand (the handler returns `deferred`).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <set>

#include "accounts/account_commands.hpp"
#include "envelope.pb.h"
#include "lobby/hub.hpp"
#include "net/outbox.hpp"
#include "net/rate_limiter.hpp"
#include "storage/replay_cursor.hpp"

namespace duelhall::server {

// What a connection knows about itself; touched only on the connection's strand.
struct ClientState {
  explicit ClientState(const Limits& limits)
      : chat(limits.chat_per_minute / 60.0, std::max<double>(1.0, limits.chat_per_minute / 6.0)) {}
  std::shared_ptr<Player> player;
  bool subscribed = false;
  std::set<uint64_t> watching;  // matches this connection spectates
  RateLimiter chat;
  // The replay this connection last looked at, kept open so that stepping is one action.
  std::shared_ptr<storage::ReplayCursor> replay;
  uint64_t replay_match = 0;
  accounts::ConnectionAccount account;  // its address is set by the session
  // A password command is on the hashing pool: the connection's next commands wait in `held`
  // (bounded), so its replies keep the order of its commands.
  bool hashing = false;
  std::deque<ClientMessage> held;
};

struct Handled {
  ResultCode code = OK;
  std::string reason;
  bool deferred = false;   // the match replies later
  bool keep_body = false;  // a refusal that explains itself in the body (a Sanction)
  uint32_t retry_after_ms = 0;  // ServerMessage.retry_after_ms, kept on a refusal
  uint32_t attempts_left = 0;   // ServerMessage.attempts_left, likewise
  static Handled ok() { return {}; }
  static Handled retry(ResultCode code, std::string reason, uint32_t after_ms) {
    return {code, std::move(reason), false, false, after_ms};
  }
  static Handled fail(ResultCode code, std::string reason) {
    return {code, std::move(reason), false};
  }
  static Handled later() { return {OK, {}, true}; }
};

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
  struct Call {
    const std::shared_ptr<Peer>& peer;
    ClientState& state;
    uint64_t request_id;
    ServerMessage& reply;
    bool ticketed = false;  // a good cluster ticket came with the command: serve it here
  };
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
  // Replays, export and import (dispatch_replays.cpp).
  Handled handle_list_replays(Call& call, const ListReplays& request);
  Handled handle_replay_view(Call& call, const ReplayView& request);
  Handled handle_export_match(Call& call, const ExportMatch& request);
  Handled handle_import_match(Call& call, const ImportMatch& request);
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
  // Moderators' commands (moderation_commands.cpp, moderation_lists.cpp), and the players'
  // reports and ignores (moderation_player.cpp); docs/moderation.md.
  Handled handle_moderation(Call& call, const ClientMessage& message);
  Handled handle_moderation_list(Call& call, const ClientMessage& message);
  Handled handle_report(Call& call, const Report& request);
  Handled handle_ignore(Call& call, const Ignore& request);
  // BANNED, with the Sanction in the reply, when the connection's address or account (or the
  // account `also`, a resumed player's) is banned.
  std::optional<Handled> refuse_banned(Call& call, int64_t also = 0);
  // After a sign-in or registration: BANNED (the new session revoked, the connection a guest
  // again) for a banned account, else the SignedIn reply gains the account's role.
  std::optional<Handled> refuse_signed_in(Call& call);
  // MUTED, likewise, when the player's chat is muted.
  std::optional<Handled> refuse_muted(Call& call);
  // The connection has a player now: it joins the roster, with the account's ignores.
  void enter_roster(Call& call);
  // The connection's account changed (sign-in, sign-out): its ignores follow it.
  void reload_ignores(Call& call);
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
