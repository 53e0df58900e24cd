// The moderators' commands (ClientMessage 40-53; docs/moderation.md): one role check, then one
// small handler per command. The service decides and stores (and writes the audit log); here
// the connections a decision touches are told and closed.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "accounts/address_prefix.hpp"
#include "lobby/moderation_cluster.hpp"
#include "lobby/moderation_support.hpp"
#include "match/match.hpp"
#include "metrics/log_field.hpp"
#include "metrics/server_metrics.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

using accounts::ModerationService;
using accounts::Role;

constexpr size_t kMaxAnnouncementBytes = 500;

struct Actor {
  std::string name;
  Role role = Role::kNone;
  int64_t account = 0;
  std::string address;
};

Handled bad_reason() {
  return Handled::fail(BAD_TARGET, "a reason is at most 500 bytes");
}

// A moderator acts on players and accounts below their own role, never on themselves.
std::optional<Handled> protected_target(ModerationService& service, const Actor& actor,
                                        const Target& target) {
  if (target.account && target.account->id == actor.account) {
    return Handled::fail(PROTECTED_TARGET, "you cannot act on yourself");
  }
  const Role role =
      target.account && !target.account->guest ? service.role(target.account->id) : Role::kNone;
  if (role >= actor.role) {
    return Handled::fail(PROTECTED_TARGET, std::string("that account is a ") +
                                               accounts::role_name(role) +
                                               ": only a higher role may act on it");
  }
  return std::nullopt;
}

// An address ban may not cover a connection of the moderator's own role or a higher one: a
// moderator cannot lock out an admin, nor a fellow moderator, by address.
std::optional<Handled> covers_staff(Hub& hub, ModerationService& service, const Actor& actor,
                                    const accounts::AddressPrefix& prefix) {
  for (const Roster::Entry& e : hub.roster().all()) {
    if (!e.player || !prefix.contains(e.address)) continue;
    const Player::Account account = e.player->account();
    if (account.id == 0 || account.guest) continue;
    const Role role = service.role(account.id);
    if (role != Role::kNone && role >= actor.role) {
      return Handled::fail(PROTECTED_TARGET, std::string("the ban would cover a connection of a ") +
                                                 accounts::role_name(role) +
                                                 ": only a higher role may");
    }
  }
  return std::nullopt;
}

void fill_ban(const storage::BanRecord& ban, BanEntry& out) {
  out.set_id(static_cast<uint64_t>(ban.id));
  out.set_account(ban.account_name);
  out.set_address(ban.address);
  out.set_reason(ban.reason);
  out.set_by(ban.by);
  out.set_at_ms(static_cast<uint64_t>(ban.created_ms));
  out.set_expires_ms(static_cast<uint64_t>(ban.expires_ms));
}

}  // namespace

Handled Dispatcher::handle_moderation(Call& call, const ClientMessage& message) {
  ModerationService* service = hub_.moderation();
  if (!service) return Handled::fail(ACCOUNTS_DISABLED, "this server offers no moderation");
  Actor actor;
  actor.role = role_of(hub_, call.state);
  if (actor.role < Role::kModerator) {
    return Handled::fail(NOT_MODERATOR, "only a moderator may do this: sign in to one");
  }
  actor.name = call.state.account.account->name;
  actor.account = call.state.account.account->id;
  actor.address = call.state.account.address;
  Handled refused;
  switch (message.command_case()) {
    case ClientMessage::kKick: {
      const auto& r = message.kick();
      if (r.reason().size() > accounts::kMaxReasonBytes) return bad_reason();
      const auto target = resolve_target(hub_, r.target(), refused);
      if (!target) return refused;
      if (auto p = protected_target(*service, actor, *target)) return *p;
      // In a cluster an account may be connected to another node: every node kicks it there.
      const bool elsewhere = hub_.cluster() && target->account;
      const auto is_kicked = [&](const Roster::Entry& e) { return is_target(e, *target); };
      if (hub_.roster().peers(is_kicked).empty() && !elsewhere) {
        return Handled::fail(UNKNOWN_TARGET, target->name + " is not connected");
      }
      kick_out(hub_, is_kicked, target->account ? target->account->id : 0, r.reason(),
               actor.address);
      if (elsewhere) {
        broadcast_moderation(hub_,
                             {ModerationChange::Kind::kKick, target->account->id, r.reason()});
      }
      service->audit(actor.name, "kick", target->name, r.reason());
      spdlog::info("moderator {} kicked {}: {}", metrics::log_field(actor.name),
                   metrics::log_field(target->name), metrics::log_field(r.reason()));
      return Handled::ok();
    }
    case ClientMessage::kMute:
    case ClientMessage::kUnmute: {
      const bool mute = message.command_case() == ClientMessage::kMute;
      const auto& wanted = mute ? message.mute().target() : message.unmute().target();
      if (mute && message.mute().reason().size() > accounts::kMaxReasonBytes) return bad_reason();
      const auto target = resolve_target(hub_, wanted, refused);
      if (!target) return refused;
      if (auto p = protected_target(*service, actor, *target)) return *p;
      const accounts::MuteKey key{
          target->account ? target->account->id : 0, target->player ? target->player->id() : 0, {}};
      if (!mute) {
        if (!service->unmute(actor.name, key, target->name)) {
          return Handled::fail(UNKNOWN_TARGET, target->name + " is not muted");
        }
        if (key.account != 0) {
          broadcast_moderation(hub_, {ModerationChange::Kind::kUnmute, key.account, {}});
        }
        return Handled::ok();
      }
      // The mute holds the target's connections too, by player and (but the moderator's own)
      // by address, so that signing out does not lift it.
      std::vector<accounts::MuteKey> connections;
      for (const Roster::Entry& e : hub_.roster().all()) {
        if (!is_target(e, *target)) continue;
        connections.push_back({0, e.player->id(), e.address == actor.address ? "" : e.address});
      }
      service->mute(actor.name, key, target->name, message.mute().seconds(),
                    message.mute().reason(), connections);
      if (key.account != 0) {
        broadcast_moderation(hub_, {ModerationChange::Kind::kMute, key.account, {}});
      }
      if (auto sanction = service->muted(key)) {
        tell_peers(
            hub_.roster().peers([&](const Roster::Entry& e) { return is_target(e, *target); }),
            sanction_of(*sanction), {});
      }
      return Handled::ok();
    }
    case ClientMessage::kBan: {
      const auto& r = message.ban();
      if (r.reason().size() > accounts::kMaxReasonBytes) return bad_reason();
      storage::BanRecord ban;
      std::function<bool(const Roster::Entry&)> banned;
      if (!r.target().address().empty()) {
        const auto prefix = accounts::AddressPrefix::parse(r.target().address());
        if (!prefix) {
          return Handled::fail(BAD_TARGET, "'" + r.target().address() +
                                               "' is not an IPv4 or IPv6 address or prefix");
        }
        if (prefix->contains(actor.address)) {
          return Handled::fail(PROTECTED_TARGET, "the ban would cover your own address");
        }
        const unsigned widest = accounts::min_ban_prefix(actor.role, prefix->is_v4());
        if (prefix->length() < widest) {
          return Handled::fail(BAD_TARGET, std::string("a ") + accounts::role_name(actor.role) +
                                               " bans at most a /" + std::to_string(widest) +
                                               (prefix->is_v4() ? " of IPv4" : " of IPv6"));
        }
        if (auto p = covers_staff(hub_, *service, actor, *prefix)) return *p;
        ban = service->ban_address(actor.name, prefix->text(), r.seconds(), r.reason());
        banned = [prefix](const Roster::Entry& e) { return prefix->contains(e.address); };
      } else {
        const auto target = resolve_target(hub_, r.target(), refused);
        if (!target) return refused;
        if (!target->account) {
          return Handled::fail(BAD_TARGET,
                               target->name + " is a guest without an account: ban the address");
        }
        if (auto p = protected_target(*service, actor, *target)) return *p;
        ban = service->ban_account(actor.name, *target->account, r.seconds(), r.reason());
        const Target who = *target;
        banned = [who](const Roster::Entry& e) { return is_target(e, who); };
      }
      metrics::server_metrics().bans.add();
      broadcast_moderation(hub_, {ModerationChange::Kind::kBan, ban.account, {}});
      const accounts::Sanction sanction{"ban", ban.reason, ban.expires_ms};
      const size_t closed = tell_peers(hub_.roster().peers(banned), sanction_of(sanction),
                                       "BANNED: " + accounts::describe(sanction));
      spdlog::info("moderator {} banned {}{} ({} connections closed): {}",
                   metrics::log_field(actor.name), metrics::log_field(ban.account_name),
                   ban.address, closed, metrics::log_field(ban.reason));
      fill_ban(ban, *call.reply.mutable_bans()->add_bans());
      return Handled::ok();
    }
    case ClientMessage::kUnban:
      switch (
          service->unban(actor.name, actor.role, static_cast<int64_t>(message.unban().ban_id()))) {
        case accounts::UnbanOutcome::kLifted:
          break;
        case accounts::UnbanOutcome::kNoSuchBan:
          return Handled::fail(UNKNOWN_TARGET, "no such ban in force");
        case accounts::UnbanOutcome::kProtected:
          return Handled::fail(
              PROTECTED_TARGET,
              "a higher role set that ban: only its role or a higher one lifts it");
      }
      broadcast_moderation(hub_, {ModerationChange::Kind::kUnban, 0, {}});
      return Handled::ok();
    case ClientMessage::kAbortMatch: {
      const auto& r = message.abort_match();
      if (r.reason().size() > accounts::kMaxReasonBytes) return bad_reason();
      auto match = hub_.find_match(r.match_id());
      if (!match) return Handled::fail(UNKNOWN_MATCH, "no such match");
      const std::string target = "match " + std::to_string(r.match_id());
      // The outcome comes on the match's strand; the audit log is written off it.
      match->abort(r.reason(), [service, &io = hub_.io(), peer = call.peer,
                                request_id = call.request_id, actor = actor.name, target,
                                reason = r.reason()](ResultCode code, std::string why) {
        boost::asio::post(io, [=] {
          if (code == OK) service->audit(actor, "abort", target, reason);
          peer->send(frame_of(reply(request_id, code, why)));
        });
      });
      return Handled::later();
    }
    case ClientMessage::kAnnounce: {
      const std::string& text = message.announce().text();
      if (text.empty() || text.size() > kMaxAnnouncementBytes) {
        return Handled::fail(CHAT_TOO_LONG, "an announcement is 1 to 500 bytes");
      }
      // It reaches every connection: it counts against the sender's chat rate.
      if (!call.state.chat.allow()) return Handled::fail(RATE_LIMITED, "too many announcements");
      ServerMessage m;
      Announcement* a = m.mutable_announcement();
      a->set_text(text);
      a->set_from(actor.name);
      a->set_at_ms(static_cast<uint64_t>(service->now_ms()));
      const Frame frame = frame_of(m);
      for (const auto& peer : hub_.roster().peers([](const Roster::Entry&) { return true; })) {
        peer->send(frame);
      }
      service->audit(actor.name, "announce", "everyone", text);
      return Handled::ok();
    }
    case ClientMessage::kSetRole: {
      if (actor.role < Role::kAdmin) return Handled::fail(NOT_ADMIN, "only an admin gives roles");
      const auto& r = message.set_role();
      const auto role = accounts::parse_role(r.role());
      if (!role || *role == Role::kAdmin) {
        return Handled::fail(BAD_TARGET,
                             "the role is \"moderator\" or \"\" (admins are made with "
                             "`duelhall admin grant`)");
      }
      ModerationTarget wanted;
      wanted.set_account(r.account());
      const auto target = resolve_target(hub_, wanted, refused);
      if (!target) return refused;
      if (auto p = protected_target(*service, actor, *target)) return *p;
      const auto answer = service->set_role(actor.name, r.account(), *role);
      if (answer.code != OK) return Handled::fail(answer.code, answer.reason);
      return Handled::ok();
    }
    default:
      return handle_moderation_list(call, message);
  }
}

}  // namespace duelhall::server
