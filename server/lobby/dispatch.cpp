#include "lobby/dispatch.hpp"

#include "decks/deck_handlers.hpp"
#include "friends/friends_handlers.hpp"
#include "lobby/account_handlers.hpp"
#include "lobby/cluster_redirects.hpp"
#include "lobby/lobby_handlers.hpp"
#include "moderation/moderation_handlers.hpp"
#include "net/messages.hpp"
#include "pairing/pairing_handlers.hpp"
#include "tournament_room/tournament_handlers.hpp"
#include "replays/replay_handlers.hpp"

namespace duelhall::server {
namespace {

// Commands a connection may send while its password command hashes; more are refused.
constexpr size_t kMaxHeld = 32;

}  // namespace

void Dispatcher::dispatch(const std::shared_ptr<Peer>& peer, ClientState& state,
                          const ClientMessage& message, Outbox& out) {
  if (state.hashing) return hold(peer, state, message, out);
  ServerMessage reply_message;
  Call call{peer, state, message.request_id(), reply_message};
  Handled handled;
  if (!state.player && message.command_case() != ClientMessage::kHello &&
      message.command_case() != ClientMessage::kPing) {
    handled = Handled::fail(HELLO_REQUIRED, "say hello first");
  } else if (auto ended = refuse_ended_session(hub_, call)) {
    handled = *ended;
  } else if (!message.ticket().empty() &&
             (handled = check_ticket(hub_, call, message)).code != OK) {
    // a bad ticket: refused before the command is looked at
  } else {
    handled = route(call, message);
  }
  if (state.player) state.player->touch();  // presence: a command is activity
  answer(peer, message.request_id(), handled, reply_message, out);
}

Handled Dispatcher::route(Call& call, const ClientMessage& message) {
  switch (message.command_case()) {
    case ClientMessage::kHello:
      return handle_hello(hub_, call, message.hello());
    case ClientMessage::kListRulesets:
      return handle_list_rulesets(hub_, call, message.list_rulesets());
    case ClientMessage::kListMatches:
      return handle_list_matches(hub_, call);
    case ClientMessage::kSubscribeLobby:
      return handle_subscribe_lobby(hub_, call, message.subscribe_lobby());
    case ClientMessage::kCreateMatch:
      return handle_create_match(hub_, call, message.create_match());
    case ClientMessage::kJoinMatch:
      return handle_join_match(hub_, call, message.join_match());
    case ClientMessage::kLeaveMatch:
      return handle_leave_match(hub_, call, message.leave_match());
    case ClientMessage::kSpectate:
      return handle_spectate(hub_, call, message.spectate());
    case ClientMessage::kFillWithBots:
      return handle_fill_bots(hub_, call, message.fill_with_bots());
    case ClientMessage::kAction:
      return handle_action(hub_, call, message.action());
    case ClientMessage::kResync:
      return handle_resync(hub_, call, message.resync());
    case ClientMessage::kChat:
      return handle_chat(hub_, call, message.chat());
    case ClientMessage::kPing:
      return handle_ping(call, message.ping());
    case ClientMessage::kListReplays:
      return handle_list_replays(hub_, call, message.list_replays());
    case ClientMessage::kReplayView:
      return handle_replay_view(hub_, call, message.replay_view());
    case ClientMessage::kExportMatch:
      return handle_export_match(hub_, call, message.export_match());
    case ClientMessage::kImportMatch:
      return handle_import_match(hub_, call, message.import_match());
    case ClientMessage::kResign:
      return handle_resign(hub_, call, message.resign());
    case ClientMessage::kRegisterAccount:
    case ClientMessage::kSignIn:
    case ClientMessage::kSignOut:
    case ClientMessage::kChangePassword:
    case ClientMessage::kDeleteAccount:
    case ClientMessage::kGetProfile:
    case ClientMessage::kGetHistory:
    case ClientMessage::kGetLeaderboard:
      return handle_account(hub_, call, message, hashed_reply(call));
    case ClientMessage::kKick:
    case ClientMessage::kMute:
    case ClientMessage::kUnmute:
    case ClientMessage::kBan:
    case ClientMessage::kUnban:
    case ClientMessage::kAbortMatch:
    case ClientMessage::kAnnounce:
    case ClientMessage::kSetRole:
    case ClientMessage::kListReports:
    case ClientMessage::kResolveReport:
    case ClientMessage::kListAudit:
    case ClientMessage::kListBans:
    case ClientMessage::kListConnections:
    case ClientMessage::kListLiveMatches:
      return handle_moderation(hub_, call, message);
    case ClientMessage::kReport:
      return handle_report(hub_, call, message.report());
    case ClientMessage::kIgnore:
      return handle_ignore(hub_, call, message.ignore());
    case ClientMessage::kChallenge:
      return handle_challenge(hub_, call, message.challenge());
    case ClientMessage::kAnswerChallenge:
      return handle_answer_challenge(hub_, call, message.answer_challenge());
    case ClientMessage::kCancelChallenge:
      return handle_cancel_challenge(hub_, call, message.cancel_challenge());
    case ClientMessage::kFollow:
      return handle_follow(hub_, call, message.follow());
    case ClientMessage::kUnfollow:
      return handle_unfollow(hub_, call, message.unfollow());
    case ClientMessage::kGetFollowed:
      return handle_get_followed(hub_, call);
    case ClientMessage::kListOnline:
      return handle_list_online(hub_, call, message.list_online());
    case ClientMessage::kGetTv:
      return handle_get_tv(hub_, call, message.get_tv());
    case ClientMessage::kSeek:
      return handle_seek(hub_, call, message.seek());
    case ClientMessage::kCancelSeek:
      return handle_cancel_seek(hub_.pairing(), call);
    case ClientMessage::kOfferRematch:
      return handle_offer_rematch(hub_.pairing(), call, message.offer_rematch());
    case ClientMessage::kAnswerRematch:
      return handle_answer_rematch(hub_.pairing(), call, message.answer_rematch());
    case ClientMessage::kListDecks:
      return handle_list_decks(hub_, call, message.list_decks());
    case ClientMessage::kGetDeck:
      return handle_get_deck(hub_, call, message.get_deck());
    case ClientMessage::kSaveDeck:
      return handle_save_deck(hub_, call, message.save_deck());
    case ClientMessage::kDeleteDeck:
      return handle_delete_deck(hub_, call, message.delete_deck());
    case ClientMessage::kCheckDeck:
      return handle_check_deck(hub_, call, message.check_deck());
    case ClientMessage::kCreateTournament:
      return handle_create_tournament(hub_.tournaments(), call, message.create_tournament());
    case ClientMessage::kListTournaments:
      return handle_list_tournaments(hub_.tournaments(), call, message.list_tournaments());
    case ClientMessage::kGetTournament:
      return handle_get_tournament(hub_.tournaments(), call, message.get_tournament());
    case ClientMessage::kJoinTournament:
      return handle_join_tournament(hub_, call, message.join_tournament());
    case ClientMessage::kWithdrawTournament:
      return handle_withdraw_tournament(hub_.tournaments(), call, message.withdraw_tournament());
    case ClientMessage::kDisqualifyEntrant:
      return handle_disqualify_entrant(hub_.tournaments(), call, message.disqualify_entrant());
    case ClientMessage::COMMAND_NOT_SET:
      return Handled::fail(UNKNOWN_COMMAND, "no command, or one this server does not know");
  }
  return Handled::fail(UNKNOWN_COMMAND, "no command, or one this server does not know");
}

void Dispatcher::answer(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                        const Handled& handled, ServerMessage& reply, Outbox& out) {
  if (handled.deferred) return;
  // A refusal carries no half-filled body, only a Sanction that explains it; a redirect carries
  // where to go.
  if (handled.code != OK && handled.code != REDIRECT && !handled.keep_body) reply.Clear();
  reply.set_request_id(request_id);
  reply.set_result(handled.code);
  count_refusal(handled.code);
  if (!handled.reason.empty()) reply.set_reason(handled.reason);
  if (handled.retry_after_ms != 0) reply.set_retry_after_ms(handled.retry_after_ms);
  if (handled.attempts_left != 0) reply.set_attempts_left(handled.attempts_left);
  out.add(peer, frame_of(reply));
}

void Dispatcher::disconnected(const Peer* peer, ClientState& state) {
  leave_hall(hub_, peer, state);
}

AccountHashed Dispatcher::hashed_reply(Call& call) {
  ClientState* state = &call.state;  // lives as long as the connection, which `peer` holds
  return [this, peer = call.peer, state, request_id = call.request_id](
             accounts::ConnectionAccount account, const accounts::CommandOutcome& outcome,
             ServerMessage reply) {
    hashed(peer, *state, request_id, std::move(account), outcome, std::move(reply));
  };
}

void Dispatcher::hashed(const std::shared_ptr<Peer>& peer, ClientState& state, uint64_t request_id,
                        accounts::ConnectionAccount account,
                        const accounts::CommandOutcome& outcome, ServerMessage reply) {
  state.account = std::move(account);
  Outbox out;
  Call call{peer, state, request_id, reply};
  const Handled handled = apply_account(hub_, call, outcome);
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
