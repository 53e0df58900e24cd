#include "lobby/dispatch.hpp"

#include <spdlog/spdlog.h>
#include <map>
#include <optional>

#include "accounts/moderation_service.hpp"
#include "accounts/name_skeleton.hpp"
#include "core/version.hpp"
#include "match/match.hpp"
#include "metrics/server_metrics.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxNameChars = 32;
constexpr size_t kMaxNameBytes = 4 * kMaxNameChars;  // the longest UTF-8 such a name can be

// The number of characters (code points) of well-formed UTF-8 without control characters, or
// nullopt: names are counted as people read them, so "Zoë" is 3, not 4.
std::optional<size_t> name_chars(const std::string& name) {
  size_t chars = 0;
  for (size_t i = 0; i < name.size(); ++chars) {
    const auto lead = static_cast<unsigned char>(name[i]);
    const size_t len = lead < 0x80           ? 1
                       : (lead >> 5) == 0x6  ? 2
                       : (lead >> 4) == 0xe  ? 3
                       : (lead >> 3) == 0x1e ? 4
                                             : 0;
    if (len == 0 || i + len > name.size()) return std::nullopt;
    if (lead < 0x20 || lead == 0x7f) return std::nullopt;
    uint32_t cp = len == 1 ? lead : lead & (0x7f >> len);
    for (size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(name[i + k]);
      if ((c & 0xc0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (c & 0x3f);
    }
    const bool overlong =
        (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return std::nullopt;
    if (cp >= 0x80 && cp < 0xa0) return std::nullopt;  // C1 controls
    i += len;
  }
  return chars;
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  const auto chars = name_chars(name);
  // No invisible or text-direction characters, no spaces at the ends (look-alikes of accounts'
  // names are refused by the accounts: hello_account).
  return chars && *chars <= kMaxNameChars && !accounts::display_name_problem(name);
}

void fill_welcome_account(accounts::ModerationService* moderation, const ClientState& state,
                          Welcome& welcome) {
  if (!state.account.account) return;
  accounts::fill_account(*state.account.account, *welcome.mutable_account());
  if (moderation && !state.account.account->guest) {
    welcome.mutable_account()->set_role(
        accounts::role_name(moderation->role(state.account.account->id)));
  }
}

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
  } else if (auto ended = refuse_ended_session(call)) {
    handled = *ended;
  } else if (!message.ticket().empty() && (handled = check_ticket(call, message)).code != OK) {
    // a bad ticket: refused before the command is looked at
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
      case ClientMessage::kResign:
        handled = handle_resign(call, message.resign());
        break;
      case ClientMessage::kRegisterAccount:
      case ClientMessage::kSignIn:
      case ClientMessage::kSignOut:
      case ClientMessage::kChangePassword:
      case ClientMessage::kDeleteAccount:
      case ClientMessage::kGetProfile:
      case ClientMessage::kGetHistory:
      case ClientMessage::kGetLeaderboard:
        handled = handle_account(call, message);
        break;
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
        handled = handle_moderation(call, message);
        break;
      case ClientMessage::kReport:
        handled = handle_report(call, message.report());
        break;
      case ClientMessage::kIgnore:
        handled = handle_ignore(call, message.ignore());
        break;
      case ClientMessage::COMMAND_NOT_SET:
        handled = Handled::fail(UNKNOWN_COMMAND, "no command, or one this server does not know");
        break;
    }
  }
  answer(peer, message.request_id(), handled, reply_message, out);
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
  hub_.roster().remove(peer->peer_id());
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
  // A session or guest token says which account the player is (a bad session is refused).
  const auto account = accounts::hello_account(hub_.accounts(), call.state.account, hello);
  if (account.code != OK) {
    Handled refused = Handled::fail(account.code, account.reason);
    refused.retry_after_ms = account.retry_after_ms;
    return refused;
  }
  if (auto banned = refuse_banned(call)) {
    call.state.account = accounts::ConnectionAccount{call.state.account.address, {}, {}};
    return *banned;
  }
  Welcome* welcome = call.reply.mutable_welcome();
  welcome->set_protocol_version(hello.protocol_version());
  if (!hello.resume_token().empty()) {
    if (auto elsewhere = resume_elsewhere(call, hello)) return *elsewhere;
    auto player = hub_.find_player(hello.resume_token());
    if (!player) return Handled::fail(BAD_TOKEN, "unknown or expired resume token");
    if (auto banned = refuse_banned(call, player->account().id)) return *banned;
    player->set_protocol(hello.protocol_version());
    if (auto old = player->bind(call.peer)) old->close("replaced by a new connection");
    call.state.player = player;
    bind_account(call.state, account.account_changed);
    welcome->set_player_id(player->id());
    welcome->set_display_name(player->name());
    welcome->set_resume_token(player->token());
    welcome->set_resumed(true);
    fill_welcome_account(hub_.moderation(), call.state, *welcome);
    enter_roster(call);
    std::map<uint64_t, uint64_t> cursors;
    for (const auto& c : hello.cursors()) cursors[c.match_id()] = c.seq();
    for (auto& match : player->matches()) {
      welcome->add_matches(match->id());
      auto it = cursors.find(match->id());
      match->resume(player, it == cursors.end() ? std::nullopt : std::optional(it->second));
    }
    return Handled::ok();
  }
  const bool registered = call.state.account.account && !call.state.account.account->guest;
  if (!registered && !valid_name(hello.display_name())) {
    return Handled::fail(BAD_NAME,
                         "a display name is 1 to 32 characters without control, invisible or "
                         "text-direction characters, and no spaces at either end");
  }
  auto player =
      hub_.new_player(registered ? call.state.account.account->name : hello.display_name());
  player->set_protocol(hello.protocol_version());
  player->bind(call.peer);
  call.state.player = player;
  bind_account(call.state, true);
  welcome->set_player_id(player->id());
  welcome->set_display_name(player->name());
  welcome->set_resume_token(player->token());
  fill_welcome_account(hub_.moderation(), call.state, *welcome);
  enter_roster(call);
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
  if (auto elsewhere = place_elsewhere(call)) return *elsewhere;
  CreateOutcome created = hub_.create_match(call.state.player, request);
  if (created.code != OK) {
    Handled refused = Handled::fail(created.code, created.reason);
    if (created.code == STORAGE_UNAVAILABLE) refused.retry_after_ms = accounts::kStoreRetryMs;
    return refused;
  }
  MatchCreated* reply = call.reply.mutable_created();
  *reply->mutable_match() = std::move(created.info);
  reply->set_invite_code(created.invite);
  reply->set_seat(created.seat);
  if (!hub_.cluster()) return Handled::ok();
  // In a cluster the creation is answered once the match's lease is in Redis: a join or spectate
  // through another node, sent the moment the id is known, finds its node (docs/cluster.md).
  call.reply.set_request_id(call.request_id);
  call.reply.set_result(OK);
  hub_.open_when_leased(created.match,
                        [peer = call.peer, frame = frame_of(call.reply)] { peer->send(frame); });
  return Handled::later();
}

Handled Dispatcher::handle_join_match(Call& call, const JoinMatch& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return not_here(call, request.match_id(), false, request.seat());
  if (request.seat() < -1) {
    return Handled::fail(BAD_PARAMETERS, "a seat is -1 (any free seat) or a seat number");
  }
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
  if (!match) return not_here(call, request.match_id(), true, -1);
  call.state.watching.insert(request.match_id());
  match->spectate(call.peer, request.invite_code(), call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_fill_bots(Call& call, const FillWithBots& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  if (!request.level().empty() && !offers_bot_level(match->ruleset(), request.level())) {
    return Handled::fail(BAD_PARAMETERS, match->ruleset().display_name + " has no bot level '" +
                                             request.level() + "'");
  }
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

Handled Dispatcher::handle_resign(Call& call, const Resign& request) {
  auto match = hub_.find_match(request.match_id());
  if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
  match->resign(call.peer, call.state.player, call.request_id);
  return Handled::later();
}

Handled Dispatcher::handle_chat(Call& call, const Chat& request) {
  if (request.text().empty() || request.text().size() > hub_.config().limits.chat_max_bytes) {
    return Handled::fail(
        CHAT_TOO_LONG,
        "chat text must be 1 to " + std::to_string(hub_.config().limits.chat_max_bytes) + " bytes");
  }
  if (auto muted = refuse_muted(call)) return *muted;
  if (!call.state.chat.allow()) return Handled::fail(RATE_LIMITED, "too many chat messages");
  if (request.match_id() == 0) {
    hub_.lobby_chat(*call.state.player, request.text());
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
