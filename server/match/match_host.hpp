// What a match needs from whoever hosts it (the lobby's Hub): the rulesets, the configuration,
// the I/O context its strand and timers run on, the threads its bots think on, and the two calls
// back up (its listing changed, it is over). Through this interface the match library stays below
// the lobby, which owns the matches, and never includes it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "envelope.pb.h"

namespace duelhall::server {

class BotPool;
class EventWords;
class Player;

class MatchHost {
 public:
  virtual ~MatchHost() = default;
  virtual const engine::Registry& registry() const = 0;
  virtual const Config& config() const = 0;
  virtual boost::asio::io_context& io() = 0;
  // Where the searching bots think (match_bots.cpp); null: on their match's strand. Thread-safe.
  virtual BotPool* bot_pool() = 0;
  // Milliseconds a bot's move waits because the server is busy (match/bot_pacer.hpp); 0 when it
  // is not. Thread-safe.
  virtual uint32_t bot_pace_ms() const { return 0; }
  // The match's lobby listing changed. Thread-safe.
  virtual void publish(const MatchInfo& info) = 0;
  // The match is over and may be forgotten. Thread-safe.
  virtual void remove_match(uint64_t id) = 0;
  // The match moved to another node of a cluster: it is forgotten here, and its lease and
  // listing (the new owner's now) are left alone. Thread-safe.
  virtual void moved_away(uint64_t id) { remove_match(id); }
  // Who sat where at the start (account ids by seat), for the players' histories and ratings.
  virtual void record_match_accounts(uint64_t match_id, std::vector<std::pair<int, int64_t>> seats,
                                     bool rated) = 0;
  // A rated match ended: the accounts rate it and the seats' players hear of the change.
  virtual void rated_match_ended(uint64_t match_id, std::string ruleset, uint64_t winners,
                                 std::vector<std::shared_ptr<Player>> players) = 0;
  // The match ended and its end is stored (every match, rated or not; an abort too): `winners`
  // has bit i for each winning seat. Thread-safe.
  virtual void match_ended(uint64_t /*match_id*/, uint64_t /*winners*/, bool /*aborted*/) {}
  // Chat (docs/moderation.md): the number a player reports the line by, and whether the
  // connection `receiver_peer_id` ignores `sender` (then the line does not reach it). Thread-safe.
  virtual uint64_t chat_line(uint64_t /*match_id*/, const Player& /*sender*/,
                             const std::string& /*text*/) {
    return 0;
  }
  // The node's event words (protocol 4); null: events go as texts. Thread-safe.
  virtual EventWords* event_words() { return nullptr; }
  virtual bool ignores(uint64_t /*receiver_peer_id*/, const Player& /*sender*/) { return false; }
};

}  // namespace duelhall::server
