// What the friends room needs from the hall it serves (the lobby's Hub implements it): the
// services, the roster of connections, every match as last published, the lobby's subscribers,
// and one thing it asks of the lobby: make a challenge's match through the lobby's own create
// and join path. Through it friends/ stays below the lobby and never includes it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "envelope.pb.h"
#include "hall/call.hpp"
#include "moderation/roster.hpp"

namespace duelhall::accounts {
class AccountService;
class ModerationService;
}  // namespace duelhall::accounts

namespace duelhall::cluster {
class ClusterNode;
}  // namespace duelhall::cluster

namespace duelhall::server {

class FriendsRoom;

class FriendsHost {
 public:
  virtual ~FriendsHost() = default;
  // Null when the server offers no accounts (and so no challenges or follows).
  virtual accounts::AccountService* accounts() const = 0;
  virtual accounts::ModerationService* moderation() const = 0;
  virtual const Config& config() const = 0;
  virtual const engine::Registry& registry() const = 0;
  virtual boost::asio::io_context& io() = 0;
  virtual Roster& roster() = 0;
  // Every match this node hosts, and in a cluster the other nodes' listed ones too.
  virtual void list_cluster_matches(MatchList& out) = 0;
  // The cluster this node belongs to; null on one node.
  virtual cluster::ClusterNode* cluster() const = 0;
  virtual std::vector<std::shared_ptr<Peer>> lobby_subscribers() = 0;
  virtual FriendsRoom& friends() = 0;
  // Creates a match with `settings`, `challenger` in seat 0 (giving `challenger_option`) and the
  // caller of `accept` in seat 1 (giving `accepter_option`): the create and join a client would
  // send, so every check of theirs applies. The caller is answered by the match (Joined);
  // `match_id` gets the new match's id. A refusal of the creation is returned as it is.
  virtual Handled start_challenge(const std::shared_ptr<Player>& challenger,
                                  const MatchSettings& settings,
                                  const std::string& challenger_option, Call& accept,
                                  const std::string& accepter_option, uint64_t& match_id) = 0;
  // In a cluster, for an accepter on another node: creates the match with `challenger` in seat
  // 0 and seat 1 open for the accepter, who joins it there with a ticket. `made` runs once the
  // match is open (or at once with the creation's refusal).
  using ChallengeMatchMade =
      std::function<void(ResultCode code, const std::string& reason, const MatchInfo& match)>;
  virtual void start_challenge_for_remote(const std::shared_ptr<Player>& challenger,
                                          const MatchSettings& settings,
                                          const std::string& challenger_option,
                                          ChallengeMatchMade made) = 0;
};

}  // namespace duelhall::server
