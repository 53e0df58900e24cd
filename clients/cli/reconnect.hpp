// Coming back to the match after the connection is lost, as the web client does
// (docs/cluster.md, Failover):
//  - a close with 1012 and "MATCH_MOVED: ..." (the match went to another node) reconnects at once
//    to the node that closed, which knows where it went; any other drop after a growing delay
//    (300 ms doubling to 5 s), for at most kReconnectFor;
//  - a node the client was sent to that cannot be reached any more (killed) sends it back to the
//    address it was started with, which knows where its matches went;
//  - the Hello carries the resume token and, for a seat, the match's cursor; REDIRECT (a resume
//    ticket, TicketRole 4) is followed to the node named, where the same Hello goes with the
//    ticket (again without it when that node refuses the ticket); CLUSTER_UNAVAILABLE (no node
//    holds the match yet) is asked again after 150 ms doubling to 2 s, for at most
//    kUnavailableFor;
//  - a spectator says Hello with its token and spectates again, following the spectate's
//    REDIRECT (with its ticket) and waiting out CLUSTER_UNAVAILABLE the same way.
// Banned, kicked or replaced by a new connection: no coming back.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "redirect.hpp"
#include "ws_client.hpp"

namespace duelhall::cli {

// The protocol duelhall-cli speaks (docs/protocol.md, Compatibility): 7, a seat's events and its
// actions' labels as phrases rendered with the ruleset's book, asked for
// (ListRulesets.phrases_of) as it sits down, and its updates in a one-byte field with the legal
// codes as steps (read back by WsClient).
inline constexpr uint32_t kProtocol = 7;

inline constexpr std::chrono::seconds kReconnectFor{30};
inline constexpr std::chrono::seconds kUnavailableFor{20};  // the web client's RESUME_GIVE_UP_MS

// Who the client is and where it started: what a reconnect needs beyond the match.
struct Identity {
  client::WsAddress home;  // the address on the command line
  std::string name;
  std::string token;  // the resume token of the connection's player (updated on each Welcome)
};

// The match to come back to: its id, the seat (-1: spectating, with `invite`) and the seq the
// client's view is at.
struct Place {
  uint64_t match = 0;
  int seat = -1;
  uint64_t seq = 0;
  std::string invite;
};

// Whether a connection closed with this code and reason may be come back from.
bool may_come_back(uint16_t code, const std::string& reason);

// Replaces `client` (closed) with a connection resumed on the node that hosts the match now:
// for a spectator its spectate's reply (a snapshot) is left first in pushed(). nullopt when it
// came back; otherwise why not.
std::optional<std::string> come_back(std::unique_ptr<client::WsClient>& client, Identity& identity,
                                     const Place& place);

}  // namespace duelhall::cli
