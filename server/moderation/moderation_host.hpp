// What the moderation room needs from the hall it serves (the lobby's Hub implements it): the
// services, the roster of connections and the recent chat, the configuration and the I/O loop,
// and the three things it asks of the lobby (forget a kicked player's resume token, find a match
// to abort, list every match). Through it moderation/ stays below the lobby and never includes it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "envelope.pb.h"
#include "moderation/roster.hpp"

namespace duelhall::accounts {
class AccountService;
class ModerationService;
}  // namespace duelhall::accounts
namespace duelhall::cluster {
class ClusterNode;
}

namespace duelhall::server {

class Match;

class ModerationHost {
 public:
  virtual ~ModerationHost() = default;
  // Null when the server offers no accounts (and so no moderation).
  virtual accounts::ModerationService* moderation() const = 0;
  virtual accounts::AccountService* accounts() const = 0;
  // Null outside a cluster.
  virtual cluster::ClusterNode* cluster() const = 0;
  virtual const Config& config() const = 0;
  virtual boost::asio::io_context& io() = 0;
  virtual Roster& roster() = 0;
  virtual ChatLog& chat_log() = 0;
  // The player's resume token no longer resumes it (a kick).
  virtual void forget_token(const std::string& token) = 0;
  virtual std::shared_ptr<Match> find_match(uint64_t id) = 0;
  // Every match, listed or not, as last published.
  virtual void list_every_match(MatchList& out) = 0;
};

}  // namespace duelhall::server
