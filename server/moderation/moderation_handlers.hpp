// The moderation room's door (docs/moderation.md): the handlers the dispatcher routes the
// moderators' commands (ClientMessage 40-53), reports and ignores to, the checks the lobby's
// Hello, sign-in and chat make (bans, mutes), the roster a connection joins, and the screen of a
// banned address's HTTP requests. Each takes the hall as a ModerationHost.
#pragma once

#include <boost/beast/http.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "hall/call.hpp"
#include "moderation/moderation_host.hpp"

namespace duelhall::server {

// The moderators' commands (moderation_commands.cpp, moderation_lists.cpp): one role check, then
// one small handler per command.
Handled handle_moderation(ModerationHost& hub, Call& call, const ClientMessage& message);
// The players' reports and ignores (moderation_player.cpp).
Handled handle_report(ModerationHost& hub, Call& call, const Report& request);
Handled handle_ignore(ModerationHost& hub, Call& call, const Ignore& request);

// BANNED, with the Sanction in the reply, when the connection's address or account (or the
// account `also`, a resumed player's) is banned.
std::optional<Handled> refuse_banned(ModerationHost& hub, Call& call, int64_t also = 0);
// After a sign-in or registration: BANNED (the new session revoked, the connection a guest
// again) for a banned account, else the SignedIn reply gains the account's role.
std::optional<Handled> refuse_signed_in(ModerationHost& hub, Call& call);
// MUTED, likewise, when the player's chat is muted.
std::optional<Handled> refuse_muted(ModerationHost& hub, Call& call);
// The connection has a player now: it joins the roster, with the account's ignores.
void enter_roster(ModerationHost& hub, Call& call);
// The connection's account changed (sign-in, sign-out): its ignores follow it.
void reload_ignores(ModerationHost& hub, Call& call);

// Asked of every HTTP request before anything else (moderation_screen.cpp): a banned address's
// WebSocket upgrade gets 403 with the ban's reason and expiry as JSON; GET /api/ban tells any
// client whether its own address is banned (a browser cannot read the body of a refused
// upgrade). nullopt lets the request through.
std::optional<boost::beast::http::message_generator> screen_banned(
    ModerationHost& hub,
    const boost::beast::http::request<boost::beast::http::string_body>& request,
    const std::string& address);

}  // namespace duelhall::server
