// What a match needs from whoever hosts it (the lobby's Hub): the rulesets, the configuration,
// the I/O context its strand and timers run on, and the two calls back up (its listing changed,
// it is over). Through this interface the match library stays below the lobby, which owns the
// matches, and never includes it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>

#include "config/config.hpp"
#include "core/registry.hpp"
#include "envelope.pb.h"

namespace duelhall::server {

class MatchHost {
 public:
  virtual ~MatchHost() = default;
  virtual const engine::Registry& registry() const = 0;
  virtual const Config& config() const = 0;
  virtual boost::asio::io_context& io() = 0;
  // The match's lobby listing changed. Thread-safe.
  virtual void publish(const MatchInfo& info) = 0;
  // The match is over and may be forgotten. Thread-safe.
  virtual void remove_match(uint64_t id) = 0;
};

}  // namespace duelhall::server
