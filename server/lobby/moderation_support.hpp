// What the lobby's moderation handlers share (docs/moderation.md): the connection's role, the
// player or account a command names, and the Sanction a target is told.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accounts/moderation_service.hpp"
#include "envelope.pb.h"
#include "lobby/dispatch.hpp"
#include "lobby/hub.hpp"

namespace duelhall::server {

// The wire form of a ban or a mute.
Sanction sanction_of(const accounts::Sanction& sanction);

// The role of the connection's account (kNone for guests and servers without accounts).
accounts::Role role_of(Hub& hub, const ClientState& state);

// Whom a command names: a connected player (and its account, if it has one) or an account.
struct Target {
  std::shared_ptr<Player> player;                // when named by player id
  std::optional<accounts::AccountView> account;  // registered, or a guest identity
  std::string name;                              // for the audit log and the lists
};
// nullopt with `refusal` set: UNKNOWN_TARGET (no such player or account) or BAD_TARGET (nothing
// named). Addresses are not resolved here.
std::optional<Target> resolve_target(Hub& hub, const ModerationTarget& wanted, Handled& refusal);

// Tells each peer what was done to it (a Sanction push) and, with `close_reason`, closes it; how
// many were told.
size_t tell_peers(const std::vector<std::shared_ptr<Peer>>& peers, const Sanction& sanction,
                  const std::string& close_reason);

// Kicks the connections `pick` chooses and, with an account, the account: each is told and
// closed, its resume token no longer resumes it, and the account and each address (but
// `spared`, the moderator's own; none when nullopt) are held out for the configured
// kick_hold_seconds. How many connections were closed.
size_t kick_out(Hub& hub, const std::function<bool(const Roster::Entry&)>& pick, int64_t account,
                const std::string& reason, const std::optional<std::string>& spared);

// Whether `entry` is on the target's account or is the target's player.
bool is_target(const Roster::Entry& entry, const Target& target);

}  // namespace duelhall::server
