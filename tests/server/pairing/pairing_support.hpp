// What the pairing tests share: ignore lists as a set, seeks by rating, instants from seconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <set>
#include <utility>

#include "pairing/pairing_pool.hpp"

namespace duelhall::pairing::testing {

class IgnoreSet : public IgnoreQuery {
 public:
  void add(SeekerId who, SeekerId other) { pairs_.insert({who, other}); }
  bool ignores(SeekerId who, SeekerId other) const override {
    return pairs_.contains({who, other});
  }

 private:
  std::set<std::pair<SeekerId, SeekerId>> pairs_;
};

inline SeekerId account(int64_t id) { return SeekerId{false, id}; }
inline SeekerId guest(int64_t id) { return SeekerId{true, id}; }

inline Instant at(double seconds) {
  return Instant{} + std::chrono::duration_cast<Instant::duration>(
                         std::chrono::duration<double>(seconds));
}

inline Seek seek_of(SeekerId who, double rating, double deviation = 0, uint32_t seats = 2) {
  return Seek{who, rating, deviation, seats, {}};
}

// Base 50 and 10 per second, no deviation share: the gaps in these tests read as round numbers.
inline PairingOptions plain_options() {
  PairingOptions options;
  options.base_gap = 50;
  options.deviation_share = 0;
  options.widening_per_second = 10;
  options.max_gap = 400;
  return options;
}

}  // namespace duelhall::pairing::testing
