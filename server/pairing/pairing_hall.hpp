// The hall's pools together: one PairingPool per PoolKey, opened on the first seek with the
// options the host gives for that key, and one seek per player across all of them, so that a
// player seeking a Jedi Duel and a Force Battle at once cannot be paired twice. Pure, like the
// pool (docs/pairing.md): the lobby passes `now`, turns each Pairing into a match and each
// PairingOutcome into a ResultCode.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "pairing/pairing_pool.hpp"

namespace duelhall::pairing {

class PairingHall {
 public:
  // The options of the pool for a key, or nothing when the host offers no such pool (an unknown
  // ruleset or a clock that is not one of its presets).
  using OptionsFor = std::function<std::optional<PairingOptions>(const PoolKey&)>;

  // `ignores` may be null and must outlive the hall.
  explicit PairingHall(OptionsFor options_for, const IgnoreQuery* ignores = nullptr);

  // kUnknownPool, kAlreadySeeking (here or in any other pool) or the pool's own answer.
  PairingOutcome seek(const PoolKey& key, Seek seek, Instant now);
  PairingOutcome cancel(SeekerId who);
  // The player left (disconnected): out of whichever pool they were in; never a refusal.
  bool leave(SeekerId who);

  struct Pairing {
    PoolKey pool;
    Table table;
  };
  // A wave in every pool, in key order; a pool left empty is closed.
  std::vector<Pairing> wave(Instant now);

  std::optional<PoolKey> pool_of(SeekerId who) const;
  const PairingPool* pool(const PoolKey& key) const;
  size_t pools() const { return pools_.size(); }
  size_t seeking() const { return seeking_in_.size(); }

 private:
  OptionsFor options_for_;
  const IgnoreQuery* ignores_;
  std::map<PoolKey, PairingPool> pools_;  // ordered: waves run in the same order every time
  std::unordered_map<SeekerId, PoolKey, SeekerIdHash> seeking_in_;
};

}  // namespace duelhall::pairing
