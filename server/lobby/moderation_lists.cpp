// What moderators read (docs/moderation.md): reports (and resolving one), the audit log, the bans
// in force, the connected players and every live match. The role was checked by
// handle_moderation.
#include <algorithm>

#include "lobby/moderation_support.hpp"

namespace duelhall::server {
namespace {

constexpr uint32_t kDefaultPage = 50;
constexpr uint32_t kMaxPage = 200;

void fill_report(const storage::ReportRecord& r, ReportEntry& out) {
  out.set_id(static_cast<uint64_t>(r.id));
  out.set_reporter(r.reporter);
  out.set_target(r.target_name);
  out.set_target_player(r.target_player);
  out.set_message(r.message);
  out.set_match_id(r.match_id);
  out.set_reason(r.reason);
  out.set_at_ms(static_cast<uint64_t>(r.created_ms));
  out.set_resolved(r.resolved);
  out.set_resolved_by(r.resolved_by);
  out.set_note(r.note);
}

}  // namespace

Handled Dispatcher::handle_moderation_list(Call& call, const ClientMessage& message) {
  accounts::ModerationService& service = *hub_.moderation();
  switch (message.command_case()) {
    case ClientMessage::kListReports: {
      ReportList* list = call.reply.mutable_reports();
      for (const auto& r :
           service.store().reports(message.list_reports().include_resolved(), kMaxPage)) {
        ReportEntry* entry = list->add_reports();
        fill_report(r, *entry);
        if (r.target_account != 0 && hub_.accounts()) {
          if (auto a = hub_.accounts()->find(r.target_account); a && !a->guest) {
            entry->set_target_account(a->name);
          }
        }
      }
      return Handled::ok();
    }
    case ClientMessage::kResolveReport: {
      const auto& r = message.resolve_report();
      if (r.note().size() > accounts::kMaxReasonBytes) {
        return Handled::fail(BAD_TARGET, "a note is at most 500 bytes");
      }
      const std::string actor = call.state.account.account->name;
      const auto id = static_cast<int64_t>(std::min<uint64_t>(r.report_id(), INT64_MAX));
      if (!service.store().resolve_report(id, actor, r.note(), service.now_ms())) {
        return Handled::fail(UNKNOWN_TARGET, "no such open report");
      }
      service.audit(actor, "resolve", "report " + std::to_string(id), r.note());
      return Handled::ok();
    }
    case ClientMessage::kListAudit: {
      const auto& r = message.list_audit();
      std::optional<int64_t> before;
      if (r.before() != 0) before = static_cast<int64_t>(std::min<uint64_t>(r.before(), INT64_MAX));
      const size_t limit = r.limit() == 0 ? kDefaultPage : std::min(r.limit(), kMaxPage);
      AuditLog* log = call.reply.mutable_audit();
      for (const auto& e : service.store().audit(before, limit)) {
        AuditEntry* out = log->add_entries();
        out->set_id(static_cast<uint64_t>(e.id));
        out->set_actor(e.actor);
        out->set_action(e.action);
        out->set_target(e.target);
        out->set_reason(e.reason);
        out->set_at_ms(static_cast<uint64_t>(e.created_ms));
        out->set_expires_ms(static_cast<uint64_t>(e.expires_ms));
      }
      return Handled::ok();
    }
    case ClientMessage::kListBans: {
      BanList* list = call.reply.mutable_bans();
      for (const auto& ban : service.bans()) {
        BanEntry* out = list->add_bans();
        out->set_id(static_cast<uint64_t>(ban.id));
        out->set_account(ban.account_name);
        out->set_address(ban.address);
        out->set_reason(ban.reason);
        out->set_by(ban.by);
        out->set_at_ms(static_cast<uint64_t>(ban.created_ms));
        out->set_expires_ms(static_cast<uint64_t>(ban.expires_ms));
      }
      return Handled::ok();
    }
    case ClientMessage::kListConnections: {
      ConnectionList* list = call.reply.mutable_connections();
      const accounts::Role own_role = role_of(hub_, call.state);
      const int64_t own_account = call.state.account.account->id;
      for (const auto& e : hub_.roster().all()) {
        if (!e.player) continue;
        ConnectionEntry* out = list->add_connections();
        const Player::Account account = e.player->account();
        out->set_player_id(e.player->id());
        out->set_name(e.player->name());
        accounts::Role role = accounts::Role::kNone;
        if (account.id != 0 && !account.guest) {
          role = service.role(account.id);
          out->set_account(account.name);
          out->set_role(accounts::role_name(role));
        }
        // Staff of the reader's role or a higher one keep their address to themselves: it is
        // what an address ban would aim at.
        const bool hidden =
            role != accounts::Role::kNone && role >= own_role && account.id != own_account;
        if (!hidden) out->set_address(e.address);
        const bool guest = account.id == 0 || account.guest;
        if (auto until = service.muted_until(
                {account.id, e.player->id(), guest ? e.address : std::string()})) {
          out->set_muted(true);
          out->set_muted_until_ms(static_cast<uint64_t>(*until));
        }
        for (const auto& match : e.player->matches()) out->add_matches(match->id());
      }
      return Handled::ok();
    }
    case ClientMessage::kListLiveMatches:
      hub_.list_every_match(*call.reply.mutable_matches());
      return Handled::ok();
    default:
      return Handled::fail(UNKNOWN_COMMAND, "not a moderation command");
  }
}

}  // namespace duelhall::server
