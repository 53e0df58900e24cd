// The moderation every player meets (docs/moderation.md): bans at Hello and sign-in, mutes on
// chat, the roster a connection joins with its Hello, reports and ignores.
#include <algorithm>

#include "lobby/moderation_support.hpp"

namespace duelhall::server {
namespace {

// Bounds on what players store (docs/moderation.md).
constexpr size_t kMaxOpenReports = 1000;    // open reports in all
constexpr size_t kMaxOpenReportsEach = 10;  // open reports of one reporter
constexpr size_t kMaxIgnores = 500;         // accounts and players one connection ignores

std::set<int64_t> stored_ignores(Hub& hub, const ClientState& state) {
  std::set<int64_t> out;
  if (!hub.moderation() || !state.account.account) return out;
  for (auto id : hub.moderation()->store().ignores(state.account.account->id)) out.insert(id);
  return out;
}

Handled refusal(ServerMessage& reply, ResultCode code, const accounts::Sanction& sanction) {
  reply.Clear();
  *reply.mutable_sanction() = sanction_of(sanction);
  return Handled{code, accounts::describe(sanction), false, true};
}

}  // namespace

std::optional<Handled> Dispatcher::refuse_banned(Call& call, int64_t also) {
  auto* moderation = hub_.moderation();
  if (!moderation) return std::nullopt;
  auto ban = moderation->address_ban(call.state.account.address);
  if (!ban && call.state.account.account) {
    ban = moderation->account_ban(call.state.account.account->id);
  }
  if (!ban && also != 0) ban = moderation->account_ban(also);
  const auto& account = call.state.account.account;
  if (!ban && (!account || account->guest)) {
    ban = moderation->address_hold(call.state.account.address);
  }
  if (!ban) return std::nullopt;
  return refusal(call.reply, BANNED, *ban);
}

std::optional<Handled> Dispatcher::refuse_signed_in(Call& call) {
  auto* moderation = hub_.moderation();
  if (!moderation || !call.reply.has_signed_in()) return std::nullopt;
  if (auto banned = refuse_banned(call)) {
    hub_.accounts()->sign_out(call.state.account.session_hash);
    call.state.account = accounts::ConnectionAccount{call.state.account.address, {}, {}};
    return banned;
  }
  AccountInfo* info = call.reply.mutable_signed_in()->mutable_account();
  info->set_role(accounts::role_name(moderation->role(static_cast<int64_t>(info->id()))));
  return std::nullopt;
}

std::optional<Handled> Dispatcher::refuse_muted(Call& call) {
  auto* moderation = hub_.moderation();
  if (!moderation) return std::nullopt;
  // An address's mute holds the guests that come from it, not the accounts that share it.
  const Player::Account account = call.state.player->account();
  const bool guest = account.id == 0 || account.guest;
  const auto mute = moderation->muted(
      {account.id, call.state.player->id(), guest ? call.state.account.address : std::string()});
  if (!mute) return std::nullopt;
  return refusal(call.reply, MUTED, *mute);
}

void Dispatcher::enter_roster(Call& call) {
  hub_.roster().add(call.peer, call.state.player, call.state.account.address,
                    stored_ignores(hub_, call.state));
}

void Dispatcher::reload_ignores(Call& call) {
  hub_.roster().set_ignored_accounts(call.peer->peer_id(), stored_ignores(hub_, call.state));
}

Handled Dispatcher::handle_report(Call& call, const Report& request) {
  auto* moderation = hub_.moderation();
  if (!moderation) return Handled::fail(ACCOUNTS_DISABLED, "this server offers no moderation");
  if (request.reason().size() > accounts::kMaxReasonBytes) {
    return Handled::fail(BAD_TARGET, "a reason is at most 500 bytes");
  }
  if (!call.state.chat.allow()) return Handled::fail(RATE_LIMITED, "too many reports");
  storage::ReportRecord report;
  report.reporter = call.state.player->name();
  report.reporter_account = call.state.player->account().id;
  report.reason = request.reason();
  report.created_ms = moderation->now_ms();
  if (request.message_id() != 0) {
    const auto line = hub_.chat_log().find(request.message_id());
    if (!line) return Handled::fail(UNKNOWN_TARGET, "no such chat line (it may have aged out)");
    report.target_name = line->from;
    report.target_account = line->from_account;
    report.target_player = line->from_player;
    report.message = line->text;
    report.match_id = line->match_id;
  } else {
    Handled refused;
    const auto target = resolve_target(hub_, request.target(), refused);
    if (!target) return refused;
    report.target_name = target->name;
    report.target_account = target->account ? target->account->id : 0;
    report.target_player = target->player ? target->player->id() : 0;
  }
  if (report.target_player == call.state.player->id()) {
    return Handled::fail(BAD_TARGET, "you cannot report yourself");
  }
  // Stored reports are bounded: a few open ones per reporter, and a queue moderators can read.
  const auto open = moderation->store().reports(false, kMaxOpenReports);
  if (open.size() >= kMaxOpenReports) {
    return Handled::fail(RATE_LIMITED, "the moderators' report queue is full; try again later");
  }
  const auto from_reporter = std::count_if(open.begin(), open.end(), [&](const auto& r) {
    return report.reporter_account != 0 ? r.reporter_account == report.reporter_account
                                        : r.reporter == report.reporter;
  });
  if (static_cast<size_t>(from_reporter) >= kMaxOpenReportsEach) {
    return Handled::fail(RATE_LIMITED, "you have " + std::to_string(kMaxOpenReportsEach) +
                                           " reports waiting for a moderator already");
  }
  moderation->store().add_report(report);
  return Handled::ok();
}

Handled Dispatcher::handle_ignore(Call& call, const Ignore& request) {
  Handled refused;
  const auto target = resolve_target(hub_, request.target(), refused);
  if (!target) return refused;
  const int64_t own = call.state.player->account().id;
  const int64_t account = target->account ? target->account->id : 0;
  if ((target->player && target->player == call.state.player) || (own != 0 && account == own)) {
    return Handled::fail(BAD_TARGET, "you cannot ignore yourself");
  }
  const auto [accounts_before, players_before] = hub_.roster().ignored(call.peer->peer_id());
  if (request.ignore() && accounts_before.size() + players_before.size() >= kMaxIgnores) {
    return Handled::fail(BAD_TARGET,
                         "you ignore " + std::to_string(kMaxIgnores) + " players already");
  }
  // Stored when both sides have an account; otherwise it lasts as long as this connection.
  if (hub_.moderation() && own != 0 && account != 0) {
    hub_.moderation()->store().set_ignore(own, account, request.ignore());
  }
  hub_.roster().ignore(call.peer->peer_id(), account, target->player ? target->player->id() : 0,
                       request.ignore());
  const auto [accounts_ignored, players_ignored] = hub_.roster().ignored(call.peer->peer_id());
  IgnoreList* list = call.reply.mutable_ignores();
  for (int64_t id : accounts_ignored) {
    if (!hub_.accounts()) break;
    if (auto a = hub_.accounts()->find(id)) list->add_names(a->guest ? "guest" : a->name);
  }
  for (uint64_t id : players_ignored) {
    if (id != 0) list->add_player_ids(id);
  }
  return Handled::ok();
}

}  // namespace duelhall::server
