// The lobby's cluster side (docs/cluster.md, cluster_redirects.cpp): the ticket that came with a
// command, the placement of a new match on another node, and the redirect to the node hosting a
// match. Outside a cluster none of them redirects.
#pragma once

#include <cstdint>
#include <optional>

#include "hall/call.hpp"
#include "lobby/hub.hpp"

namespace duelhall::server {

// A ticket that came with a command: OK (the call is `ticketed`) or the typed refusal.
Handled check_ticket(Hub& hub, Call& call, const ClientMessage& message);
// A creation the placement gives to another node: REDIRECT there; nullopt to create it here.
std::optional<Handled> place_elsewhere(Hub& hub, Call& call);
// A command about a match this node does not host: REDIRECT to its node, or UNKNOWN_MATCH.
Handled not_here(Hub& hub, Call& call, uint64_t match_id, bool spectate, int seat);
// A Hello that resumes matches none of which this node hosts (their node died, another adopted
// them): REDIRECT to the node that holds the first one's lease, or CLUSTER_UNAVAILABLE while
// none does (an adoption under way); nullopt to serve it here.
std::optional<Handled> resume_elsewhere(Hub& hub, Call& call, const Hello& hello);

}  // namespace duelhall::server
