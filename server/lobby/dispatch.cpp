#include "lobby/dispatch.hpp"

#include <spdlog/spdlog.h>
#include <map>

#include "core/version.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxNameBytes = 32;

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

void Dispatcher::dispatch(const std::shared_ptr<Peer>& peer, ClientState& state,
                          const ClientMessage& message, Outbox& out) {
  ServerMessage reply_message;
  Call call{peer, state, message.request_id(), reply_message};
  Handled handled;
  if (!state.player && message.command_case() != ClientMessage::kHello &&
      message.command_case() != ClientMessage::kPing) {
    handled = Handled::fail(HELLO_REQUIRED, "say hello first");
  } else {
    switch (message.command_case()) {
      case ClientMessage::kHello:
        handled = handle_hello(call, message.hello());
        break;
      case ClientMessage::kListRulesets:
        handled = handle_list_rulesets(call);
        break;
      case ClientMessage::kListMatches:
        handled = handle_list_matches(call);
        break;
      case ClientMessage::kSubscribeLobby:
        handled = handle_subscribe_lobby(call, message.subscribe_lobby());
        break;
      case ClientMessage::kCreateMatch:
        handled = handle_create_match(call, message.create_match());
        break;
      case ClientMessage::kJoinMatch:
        handled = handle_join_match(call, message.join_match());
        break;
      case ClientMessage::kLeaveMatch:
        handled = handle_leave_match(call, message.leave_match());
        break;
      case ClientMessage::kSpectate:
        handled = handle_spectate(call, message.spectate());
        break;
      case ClientMessage::kFillWithBots:
        handled = handle_fill_bots(call, message.fill_with_bots());
        break;
      case ClientMessage::kAction:
        handled = handle_action(call, message.action());
        break;
      case ClientMessage::kResync:
        handled = handle_resync(call, message.resync());
        break;
      case ClientMessage::kChat:
        handled = handle_chat(call, message.chat());
        break;
      case ClientMessage::kPing:
        handled = handle_ping(call, message.ping());
        break;
      case ClientMessage::kListReplays:
        handled = handle_list_replays(call, message.list_replays());
        break;
      case ClientMessage::kReplayView:
        handled = handle_replay_view(call, message.replay_view());
        break;
      case ClientMessage::kExportMatch:
        handled = handle_export_match(call, message.export_match());
        break;
      case ClientMessage::kImportMatch:
        handled = handle_import_match(call, message.import_match());
        break;
      case ClientMessage::COMMAND_NOT_SET:
        handled = Handled::fail(UNKNOWN_COMMAND, "no command, or one this server does not know");
        break;
    }
  }
  if (handled.deferred) return;
  if (handled.code != OK) reply_message.Clear();  // a refusal carries no half-filled body
  reply_message.set_request_id(message.request_id());
  reply_message.set_result(handled.code);
  if (!handled.reason.empty()) reply_message.set_reason(handled.reason);
  out.add(peer, frame_of(reply_message));
}

void Dispatcher::disconnected(const Peer* peer, ClientState& state) {
  if (state.subscribed) hub_.unsubscribe(peer);
  for (uint64_t id : state.watching) {
    if (auto match = hub_.find_match(id)) match->spectator_gone(peer->peer_id());
  }
  state.watching.clear();
  if (state.player) hub_.player_dropped(state.player, peer);
}

Handled Dispatcher::handle_hello(Call& call, const Hello& hello) {
  if (call.state.player)
    return Handled::fail(ALREADY_HELLO, "this connection already has a player");
  if (hello.protocol_version() < 1 || hello.protocol_version() > kProtocolVersion) {
    return Handled::fail(UNSUPPORTED_VERSION,
                         "this server speaks protocols 1 to " + std::to_string(kProtocolVersion));
  }
  Welcome* welcome = call.reply.mutable_welcome();
  welcome->set_protocol_version(hello.protocol_version());
  if (!hello.resume_token().empty()) {
    auto player = hub_.find_player(hello.resume_token());
    if (!player) return Handled::fail(BAD_TOKEN, "unknown or expired resume token");
    player->set_protocol(hello.protocol_version());
    if (auto old = player->bind(call.peer)) old->close("replaced by a new connection");
    call.state.player = player;
    welcome->set_player_id(player->id());
    welcome->set_display_name(player->name());
    welcome->set_resume_token(player->token());
    welcome->set_resumed(true);
    std::map<uint64_t, uint64_t> cursors;
    for (const auto& c : hello.cursors()) cursors[c.match_id()] = c.seq();
    for (auto& match : player->matches()) {
      welcome->add_matches(match->id());
      auto it = cursors.find(match->id());
      match->resume(player, it == cursors.end() ? std::nullopt : std::optional(it->second));
    }
    return Handled::ok();
  }
  if (!valid_name(hello.display_name())) {
    return Handled::fail(BAD_NAME, "a display name is 1 to 32 bytes without control characters");
  }
  auto player = hub_.new_player(hello.display_name());
  player->set_protocol(hello.protocol_version());
  player->bind(call.peer);
  call.state.player = player;
  welcome->set_player_id(player->id());
  welcome->set_display_name(player->name());
  welcome->set_resume_token(player->token());
  return Handled::ok();
}

Handled Dispatcher::handle_list_rulesets(Call& call) {
  RulesetList* list = call.reply.mutable_rulesets();
  for (const auto& info : hub_.registry().all()) fill_ruleset(info, *list->add_rulesets());
  return Handled::ok();
}

Handled Dispatcher::handle_list_matches(Call& call) {
  hub_.list(*call.reply.mutable_matches());
  return Handled::ok();
}

Handled Dispatcher::handle_subscribe_lobby(Call& call, const SubscribeLobby& request) {
  hub_.subscribe(call.peer, request.subscribe());
  call.state.subscribed = request.subscribe();
  hub_.list(*call.reply.mutable_matches());
  return Handled::ok();
}

Handled Dispatcher::handle_create_match(Call& call, const CreateMatch& request) {
  CreateOutcome created = hub_.create_match(call.state.player, request);
  if (created.code != OK) return Handled::fail(created.code, created.reason);
  MatchCreated* reply = call.reply.mutable_created();
  reply->mutable_match()->set_match_id(created.match->id());
  reply->mutable_match()->set_ruleset(request.settings().ruleset());
  reply->mutable_match()->set_seed_commitment(created.match->seed_commitment());
  reply->mutable_match()->set_engine_version(std::string(engine::kEngineVersion));
  reply->set_invite_code(created.invite);
  reply->set_seat(created.seat);
  return Handled::ok();
}

Handled Dispatcher::handle_join_match(Call& call, const JoinMatch& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->join(call.peer, call.state.player, request, call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_leave_match(Call& call, const LeaveMatch& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  call.state.watching.erase(request.match_id());
  match->leave(call.peer, call.state.player, call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_spectate(Call& call, const Spectate& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  call.state.watching.insert(request.match_id());
  match->spectate(call.peer, request.invite_code(), call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_fill_bots(Call& call, const FillWithBots& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->fill_bots(call.peer, call.state.player, request.level(), call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_action(Call& call, const SubmitAction& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->act(call.peer, call.state.player, request, call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_resync(Call& call, const Resync& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->resync(call.peer, call.state.player, call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_chat(Call& call, const Chat& request) {
  if (request.text().empty() || request.text().size() > hub_.config().limits.chat_max_bytes) {
    return Handled::fail(
        CHAT_TOO_LONG,
        "chat text must be 1 to " + std::to_string(hub_.config().limits.chat_max_bytes) + " bytes");
  }
  if (!call.state.chat.allow()) return Handled::fail(RATE_LIMITED, "too many chat messages");
  if (request.match_id() == 0) {
    hub_.lobby_chat(call.state.player->name(), request.text());
    return Handled::ok();
  }
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->chat(call.peer, call.state.player, request.text(), call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_ping(Call& call, const Ping& request) {
  call.reply.mutable_pong()->set_nonce(request.nonce());
  return Handled::ok();
}

}  // namespace duelhall::server
