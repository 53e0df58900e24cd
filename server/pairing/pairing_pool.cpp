// A pool's seekers: seek, cancel, leave, and the allowance the wave (pairing_wave.cpp) pairs by.
#include "pairing/pairing_pool.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace duelhall::pairing {

std::string_view describe(PairingOutcome outcome) {
  switch (outcome) {
    case PairingOutcome::kOk:
      return "ok";
    case PairingOutcome::kAlreadySeeking:
      return "already seeking in this pool";
    case PairingOutcome::kGuestInRatedPool:
      return "guests are paired in casual pools only";
    case PairingOutcome::kPoolFull:
      return "the pool is full";
    case PairingOutcome::kUnknownSeeker:
      return "not seeking in this pool";
    case PairingOutcome::kSeatsOutOfRange:
      return "no tables of that many seats here";
    case PairingOutcome::kRatingNotFinite:
      return "a rating and deviation must be finite numbers";
    case PairingOutcome::kUnknownPool:
      return "no pairing for that ruleset and clock here";
  }
  return "unknown";
}

PairingPool::PairingPool(PoolKey key, PairingOptions options, const IgnoreQuery* ignores)
    : key_(std::move(key)), options_(options), ignores_(ignores) {}

PairingOutcome PairingPool::seek(Seek seek, Instant now) {
  if (seeking(seek.who)) return PairingOutcome::kAlreadySeeking;
  if (seek.who.guest && key_.rated) return PairingOutcome::kGuestInRatedPool;
  if (seek.seats < options_.min_seats || seek.seats > options_.max_seats) {
    return PairingOutcome::kSeatsOutOfRange;
  }
  if (!std::isfinite(seek.rating) || !std::isfinite(seek.deviation) || seek.deviation < 0) {
    return PairingOutcome::kRatingNotFinite;
  }
  if (seekers_.size() >= options_.max_seekers) return PairingOutcome::kPoolFull;
  Seeker seeker;
  static_cast<Seek&>(seeker) = std::move(seek);
  seeker.since = now;
  seeker.order = next_order_++;
  index_.emplace(seeker.who, seekers_.size());
  seekers_.push_back(std::move(seeker));
  return PairingOutcome::kOk;
}

PairingOutcome PairingPool::cancel(SeekerId who) {
  return leave(who) ? PairingOutcome::kOk : PairingOutcome::kUnknownSeeker;
}

bool PairingPool::leave(SeekerId who) {
  const auto found = index_.find(who);
  if (found == index_.end()) return false;
  const size_t position = found->second;
  index_.erase(found);
  // The pool's order means nothing (a wave sorts by rating and arrival), so the last seeker takes
  // the leaver's place.
  if (position + 1 != seekers_.size()) {
    seekers_[position] = std::move(seekers_.back());
    index_[seekers_[position].who] = position;
  }
  seekers_.pop_back();
  return true;
}

double PairingPool::allowance(const Seeker& seeker, Instant now) const {
  const double waited = std::max(0.0, std::chrono::duration<double>(now - seeker.since).count());
  return std::min(options_.max_gap, options_.base_gap +
                                        options_.deviation_share * seeker.deviation +
                                        options_.widening_per_second * waited);
}

bool PairingPool::may_meet(SeekerId a, SeekerId b) const {
  if (a == b) return false;
  if (ignores_ == nullptr) return true;
  return !ignores_->ignores(a, b) && !ignores_->ignores(b, a);
}

bool PairingPool::all_meet(const std::vector<uint32_t>& members) const {
  for (size_t i = 0; i < members.size(); ++i) {
    for (size_t j = i + 1; j < members.size(); ++j) {
      if (!may_meet(seekers_[members[i]].who, seekers_[members[j]].who)) return false;
    }
  }
  return true;
}

void PairingPool::remove_taken(const std::vector<bool>& taken) {
  size_t kept = 0;
  for (size_t position = 0; position < seekers_.size(); ++position) {
    if (taken[position]) {
      index_.erase(seekers_[position].who);
      continue;
    }
    if (kept != position) {
      seekers_[kept] = std::move(seekers_[position]);
      index_[seekers_[kept].who] = kept;
    }
    ++kept;
  }
  seekers_.resize(kept);
}

}  // namespace duelhall::pairing
