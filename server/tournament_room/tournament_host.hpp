// What the tournament room needs from the hall it serves (the lobby's Hub implements it): the
// rulesets, the configuration and the timer's I/O context, the store, the accounts' ratings and
// roles, the connected players, and the lobby's own way to make and end a match. Through it
// tournament_room/ stays below the lobby and never includes it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "envelope.pb.h"
#include "hall/call.hpp"

namespace duelhall::storage {
class TournamentStore;
struct TournamentRecord;
}

namespace duelhall::cluster {
class ClusterNode;
}

namespace duelhall::server {

class Match;
class Player;
class Peer;

// A match made for a tournament game, its first seat's player seated.
struct TournamentMatch {
  ResultCode code = OK;
  std::string reason;
  std::shared_ptr<Match> match;
  MatchInfo info;
};

class TournamentHost {
 public:
  virtual ~TournamentHost() = default;
  virtual const engine::Registry& registry() const = 0;
  virtual const Config& config() const = 0;
  virtual boost::asio::io_context& io() = 0;
  // Null when the server keeps no accounts' store: tournaments then live in memory only.
  virtual storage::TournamentStore* tournament_store() const = 0;
  // The account's rating in a ruleset (1500 before any rated game).
  virtual int32_t rating_of(int64_t account, const std::string& ruleset) = 0;
  // Whether the connection is signed in as a moderator or an admin.
  virtual bool directs_tournaments(const ClientState& state) = 0;
  // The clock of a ruleset's pools by preset name (the pairing room's presets); nullopt: none.
  virtual std::optional<uint32_t> clock_seconds(const std::string& ruleset,
                                                const std::string& clock) = 0;
  // A connected player signed in as `account`, and its connection; nulls when none.
  virtual std::pair<std::shared_ptr<Player>, std::shared_ptr<Peer>> connected(int64_t account) = 0;
  // The lobby's create path (CreateMatch with `join`): the same checks and refusals.
  virtual TournamentMatch create_for_tournament(const std::shared_ptr<Player>& creator,
                                                const CreateMatch& request) = 0;
  virtual std::shared_ptr<Match> find_match(uint64_t id) = 0;
  // Runs `then` once the match made by create_for_tournament is open: at once on one node, once
  // its lease is taken in a cluster.
  virtual void when_open(const std::shared_ptr<Match>& match, std::function<void()> then) = 0;
  // The cluster this node belongs to; null on one node (docs/tournaments.md, "In a cluster").
  virtual cluster::ClusterNode* cluster() const = 0;
};

}  // namespace duelhall::server
