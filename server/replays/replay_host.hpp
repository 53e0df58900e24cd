// What the replays room needs from the hall it serves (the lobby's Hub implements it): the
// rulesets a stored match replays with, the match store, whether a match is live here, and a new
// match id for an import. Through it replays/ stays below the lobby and never includes it.
#pragma once

#include <cstdint>
#include <memory>

#include "core/registry.hpp"

namespace duelhall::storage {
class MatchStore;
}

namespace duelhall::server {

class Match;

class ReplayHost {
 public:
  virtual ~ReplayHost() = default;
  virtual const engine::Registry& registry() const = 0;
  // Null when the server stores no matches.
  virtual storage::MatchStore* store() const = 0;
  // The match when this node hosts it live, else null.
  virtual std::shared_ptr<Match> find_match(uint64_t id) = 0;
  // A new match id: live and stored matches share one numbering.
  virtual uint64_t allocate_match_id() = 0;
};

}  // namespace duelhall::server
