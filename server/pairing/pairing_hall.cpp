#include "pairing/pairing_hall.hpp"

#include <utility>

namespace duelhall::pairing {

PairingHall::PairingHall(OptionsFor options_for, const IgnoreQuery* ignores)
    : options_for_(std::move(options_for)), ignores_(ignores) {}

PairingOutcome PairingHall::seek(const PoolKey& key, Seek seek, Instant now) {
  if (seeking_in_.contains(seek.who)) return PairingOutcome::kAlreadySeeking;
  auto found = pools_.find(key);
  if (found == pools_.end()) {
    const std::optional<PairingOptions> options = options_for_ ? options_for_(key) : std::nullopt;
    if (!options) return PairingOutcome::kUnknownPool;
    // Opened only for a seek it takes: a refused seek leaves no empty pool behind.
    PairingPool opened(key, *options, ignores_);
    const SeekerId who = seek.who;
    const PairingOutcome outcome = opened.seek(std::move(seek), now);
    if (outcome != PairingOutcome::kOk) return outcome;
    pools_.emplace(key, std::move(opened));
    seeking_in_.emplace(who, key);
    return outcome;
  }
  const SeekerId who = seek.who;
  const PairingOutcome outcome = found->second.seek(std::move(seek), now);
  if (outcome == PairingOutcome::kOk) seeking_in_.emplace(who, key);
  return outcome;
}

PairingOutcome PairingHall::cancel(SeekerId who) {
  return leave(who) ? PairingOutcome::kOk : PairingOutcome::kUnknownSeeker;
}

bool PairingHall::leave(SeekerId who) {
  const auto found = seeking_in_.find(who);
  if (found == seeking_in_.end()) return false;
  const auto pool = pools_.find(found->second);
  pool->second.leave(who);
  if (pool->second.size() == 0) pools_.erase(pool);
  seeking_in_.erase(found);
  return true;
}

std::vector<PairingHall::Pairing> PairingHall::wave(Instant now) {
  std::vector<Pairing> pairings;
  for (auto pool = pools_.begin(); pool != pools_.end();) {
    for (Table& table : pool->second.wave(now)) {
      for (const Seeker& seeker : table.seekers) seeking_in_.erase(seeker.who);
      pairings.push_back(Pairing{pool->first, std::move(table)});
    }
    pool = pool->second.size() == 0 ? pools_.erase(pool) : std::next(pool);
  }
  return pairings;
}

std::optional<PoolKey> PairingHall::pool_of(SeekerId who) const {
  const auto found = seeking_in_.find(who);
  if (found == seeking_in_.end()) return std::nullopt;
  return found->second;
}

const PairingPool* PairingHall::pool(const PoolKey& key) const {
  const auto found = pools_.find(key);
  return found == pools_.end() ? nullptr : &found->second;
}

}  // namespace duelhall::pairing
