// The lobby room's handlers, which the dispatcher routes to (docs/protocol.md): the Hello that
// gives a connection its player (lobby_hello.cpp), the rulesets and the listing, creating,
// joining and spectating a match, the commands passed on to a match, the chat, and the end of a
// connection (lobby_handlers.cpp). The account commands are in account_handlers.hpp, the
// cluster's redirects in cluster_redirects.hpp.
#pragma once

#include "hall/call.hpp"
#include "lobby/hub.hpp"

namespace duelhall::server {

Handled handle_hello(Hub& hub, Call& call, const Hello& hello);
Handled handle_list_rulesets(Hub& hub, Call& call, const ListRulesets& request);
Handled handle_list_matches(Hub& hub, Call& call);
Handled handle_subscribe_lobby(Hub& hub, Call& call, const SubscribeLobby& request);
Handled handle_create_match(Hub& hub, Call& call, const CreateMatch& request);
// JoinTournament with the saved decks loaded as setups, then to the tournament room
// (lobby/hub_tournaments.cpp).
Handled handle_join_tournament(Hub& hub, Call& call, const JoinTournament& request);
// Seek with its saved deck loaded as the seat's setup, then to the pairing room
// (lobby/hub_pairing.cpp).
Handled handle_seek(Hub& hub, Call& call, const Seek& request);
Handled handle_join_match(Hub& hub, Call& call, const JoinMatch& request);
Handled handle_leave_match(Hub& hub, Call& call, const LeaveMatch& request);
Handled handle_spectate(Hub& hub, Call& call, const Spectate& request);
Handled handle_fill_bots(Hub& hub, Call& call, const FillWithBots& request);
Handled handle_action(Hub& hub, Call& call, const SubmitAction& request);
Handled handle_resync(Hub& hub, Call& call, const Resync& request);
Handled handle_resign(Hub& hub, Call& call, const Resign& request);
Handled handle_chat(Hub& hub, Call& call, const Chat& request);
Handled handle_ping(Call& call, const Ping& request);
// The connection is gone: it leaves the roster and the lobby feed, stops spectating, and its
// player's grace period starts.
void leave_hall(Hub& hub, const Peer* peer, ClientState& state);

}  // namespace duelhall::server
