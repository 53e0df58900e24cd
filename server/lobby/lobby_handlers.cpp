// The lobby room's commands (docs/protocol.md): the rulesets and the listing, creating, joining
// and spectating a match, and the commands passed on to a match, which answers from its strand.
#include "lobby/lobby_handlers.hpp"

#include <algorithm>

#include "accounts/account_commands.hpp"
#include "decks/deck_handlers.hpp"
#include "lobby/cluster_redirects.hpp"
#include "match/match.hpp"
#include "moderation/moderation_handlers.hpp"
#include "net/messages.hpp"
#include "pairing/pairing_room.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {

void leave_hall(Hub& hub, const Peer* peer, ClientState& state) {
  hub.roster().remove(peer->peer_id());
  if (state.subscribed) hub.unsubscribe(peer);
  for (uint64_t id : state.watching) {
    if (auto match = hub.find_match(id)) match->spectator_gone(peer->peer_id());
  }
  state.watching.clear();
  hub.pairing().disconnected(*peer, state.player);
  hub.tournaments().disconnected(peer->peer_id());
  if (state.player) hub.player_dropped(state.player, peer);
}

Handled handle_list_rulesets(Hub& hub, Call& call, const ListRulesets& request) {
  const auto& books = request.phrases_of();
  for (const std::string& name : books) {
    if (!hub.registry().find(name)) return Handled::fail(UNKNOWN_RULESET, "no ruleset named '" + name + "'");
  }
  RulesetList* list = call.reply.mutable_rulesets();
  for (const auto& info : hub.registry().all()) {
    duelhall::RulesetInfo& out = *list->add_rulesets();
    fill_ruleset(info, out, std::find(books.begin(), books.end(), info.name) != books.end());
    for (const ClockPresetSetting& preset : hub.pairing().presets(info.name)) {
      ClockPreset* listed = out.add_clock_presets();
      listed->set_name(preset.name);
      listed->set_clock_seconds(preset.clock_seconds);
    }
  }
  return Handled::ok();
}

Handled handle_list_matches(Hub& hub, Call& call) {
  hub.list(*call.reply.mutable_matches());
  return Handled::ok();
}

Handled handle_subscribe_lobby(Hub& hub, Call& call, const SubscribeLobby& request) {
  hub.subscribe(call.peer, request.subscribe());
  call.state.subscribed = request.subscribe();
  hub.list(*call.reply.mutable_matches());
  return Handled::ok();
}

Handled handle_create_match(Hub& hub, Call& call, const CreateMatch& given) {
  if (auto elsewhere = place_elsewhere(hub, call)) return *elsewhere;
  CreateMatch request = given;
  if (request.saved_deck() != 0 && request.join()) {
    // The creator sits at seat 0 with the saved deck as its option, checked there as any deck.
    int seat = 0;
    Handled loaded = load_seat_deck(hub, call, request.saved_deck(), request.settings().ruleset(),
                                    &seat, request.mutable_seat_option());
    if (loaded.code != OK) return loaded;
  }
  CreateOutcome created = hub.create_match(call.state.player, request);
  if (created.code != OK) {
    Handled refused = Handled::fail(created.code, created.reason);
    if (created.code == STORAGE_UNAVAILABLE) refused.retry_after_ms = accounts::kStoreRetryMs;
    return refused;
  }
  MatchCreated* reply = call.reply.mutable_created();
  *reply->mutable_match() = std::move(created.info);
  reply->set_invite_code(created.invite);
  reply->set_seat(created.seat);
  if (!hub.cluster()) return Handled::ok();
  // In a cluster the creation is answered once the match's lease is in Redis: a join or spectate
  // through another node, sent the moment the id is known, finds its node (docs/cluster.md).
  call.reply.set_request_id(call.request_id);
  call.reply.set_result(OK);
  hub.open_when_leased(created.match,
                       [peer = call.peer, frame = frame_of(call.reply)] { peer->send(frame); });
  return Handled::later();
}

Handled handle_join_match(Hub& hub, Call& call, const JoinMatch& given) {
  auto match = hub.find_match(given.match_id());
  if (!match) return not_here(hub, call, given.match_id(), false, given.seat());
  if (given.seat() < -1) {
    return Handled::fail(BAD_PARAMETERS, "a seat is -1 (any free seat) or a seat number");
  }
  JoinMatch request = given;
  if (request.saved_deck() != 0) {
    // The match checks the loaded deck at the seat as any deck.
    int seat = request.seat();
    Handled loaded = load_seat_deck(hub, call, request.saved_deck(), match->ruleset().name, &seat,
                                    request.mutable_seat_option());
    if (loaded.code != OK) return loaded;
    request.set_seat(seat);
  }
  match->join(call.peer, call.state.player, request, call.request_id);
  return Handled::later();
}

Handled handle_leave_match(Hub& hub, Call& call, const LeaveMatch& request) {
  auto match = hub.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  call.state.watching.erase(request.match_id());
  match->leave(call.peer, call.state.player, call.request_id);
  return Handled::later();
}

Handled handle_spectate(Hub& hub, Call& call, const Spectate& request) {
  auto match = hub.find_match(request.match_id());
  if (!match) return not_here(hub, call, request.match_id(), true, -1);
  call.state.watching.insert(request.match_id());
  match->spectate(call.peer, request.invite_code(), call.request_id);
  return Handled::later();
}

Handled handle_fill_bots(Hub& hub, Call& call, const FillWithBots& request) {
  auto match = hub.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  if (!request.level().empty() && !offers_bot_level(match->ruleset(), request.level())) {
    return Handled::fail(BAD_PARAMETERS, match->ruleset().display_name + " has no bot level '" +
                                             request.level() + "'");
  }
  match->fill_bots(call.peer, call.state.player, request.level(), call.request_id);
  return Handled::later();
}

Handled handle_action(Hub& hub, Call& call, const SubmitAction& request) {
  auto match = hub.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->act(call.peer, call.state.player, request, call.request_id);
  return Handled::later();
}

Handled handle_resync(Hub& hub, Call& call, const Resync& request) {
  auto match = hub.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->resync(call.peer, call.state.player, call.request_id);
  return Handled::later();
}

Handled handle_resign(Hub& hub, Call& call, const Resign& request) {
  auto match = hub.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->resign(call.peer, call.state.player, call.request_id);
  return Handled::later();
}

Handled handle_chat(Hub& hub, Call& call, const Chat& request) {
  if (request.text().empty() || request.text().size() > hub.config().limits.chat_max_bytes) {
    return Handled::fail(
        CHAT_TOO_LONG,
        "chat text must be 1 to " + std::to_string(hub.config().limits.chat_max_bytes) + " bytes");
  }
  if (auto muted = refuse_muted(hub, call)) return *muted;
  if (!call.state.chat.allow()) return Handled::fail(RATE_LIMITED, "too many chat messages");
  if (request.match_id() == 0) {
    hub.lobby_chat(*call.state.player, request.text());
    return Handled::ok();
  }
  auto match = hub.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->chat(call.peer, call.state.player, request.text(), call.request_id);
  return Handled::later();
}

Handled handle_ping(Call& call, const Ping& request) {
  call.reply.mutable_pong()->set_nonce(request.nonce());
  return Handled::ok();
}

}  // namespace duelhall::server
