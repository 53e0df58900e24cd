// The tournament room's door (docs/protocol.md, docs/tournaments.md): the handlers the dispatcher
// routes the tournament commands to. The room itself is tournament_room.hpp.
#pragma once

#include "hall/call.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {

inline Handled handle_create_tournament(TournamentRoom& room, Call& call,
                                        const CreateTournament& request) {
  return room.create(call, request);
}
inline Handled handle_list_tournaments(TournamentRoom& room, Call& call,
                                       const ListTournaments& request) {
  return room.list(call, request);
}
inline Handled handle_get_tournament(TournamentRoom& room, Call& call,
                                     const GetTournament& request) {
  return room.get(call, request);
}
inline Handled handle_withdraw_tournament(TournamentRoom& room, Call& call,
                                          const WithdrawTournament& request) {
  return room.withdraw(call, request);
}
inline Handled handle_disqualify_entrant(TournamentRoom& room, Call& call,
                                         const DisqualifyEntrant& request) {
  return room.disqualify(call, request);
}

}  // namespace duelhall::server
