// What the pairing room needs from the hall it serves (the lobby's Hub implements it): the
// rulesets and the configuration, the timer's I/O context, the accounts' ratings, the ignore
// lists, whether a player sits in a match not ended, and the lobby's own way to create a match
// and find one. Through it pairing/ stays below the lobby and never includes it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "envelope.pb.h"

namespace duelhall::accounts {
class AccountService;
}
namespace duelhall::cluster {
class ClusterNode;
}

namespace duelhall::server {

class Match;
class Player;
class Peer;

// A match the lobby created for a pairing, its creator seated at seat 0.
struct PairingCreated {
  ResultCode code = OK;
  std::string reason;
  std::shared_ptr<Match> match;
  MatchInfo info;
};

class PairingHost {
 public:
  virtual ~PairingHost() = default;
  virtual const engine::Registry& registry() const = 0;
  virtual const Config& config() const = 0;
  virtual boost::asio::io_context& io() = 0;
  // Null when the server offers no accounts (then nobody is rated).
  virtual accounts::AccountService* accounts() const = 0;
  // Whether the connection `receiver_peer_id` ignores `sender` (the moderation roster's lists).
  virtual bool ignores(uint64_t receiver_peer_id, const Player& sender) = 0;
  // Whether the player sits in a match here that is waiting or in play.
  virtual bool seated_in_unended_match(Player& player) = 0;
  // The lobby's create path (CreateMatch with `join`): the same checks and refusals.
  virtual PairingCreated create_for_pairing(const std::shared_ptr<Player>& creator,
                                            const CreateMatch& request) = 0;
  virtual std::shared_ptr<Match> find_match(uint64_t id) = 0;
  virtual bool clustered() const = 0;
  // The node's cluster, or null on one node: then pools are in process, else in Redis.
  virtual cluster::ClusterNode* cluster() const { return nullptr; }
  // Runs `then` once a match create_for_pairing made is open: at once on one node, once its
  // lease is answered in a cluster (the match is opened then). `then` may run on another thread.
  virtual void when_open(const std::shared_ptr<Match>& /*match*/, std::function<void()> then) {
    then();
  }
};

}  // namespace duelhall::server
