// The match's random source. Every die and every shuffle of a match comes from one Rng built
// from the match's 256-bit seed, so a match replays exactly from its seed and its actions.
//
// Algorithm: the ChaCha20 block function (RFC 8439, 20 rounds) keyed by the seed, with a 64-bit
// block counter in words 12-13 and a zero nonce in words 14-15; the output is the keystream read
// as little-endian 32-bit words. ChaCha20 is chosen over a fast linear generator because players
// observe many outputs (dice, their own cards): a linear generator's state can be solved from
// them and future shuffles predicted.
//
// Sampling is defined here, not by the standard library, whose distributions differ between
// implementations: bounded integers use Lemire's multiply-and-reject method (unbiased), and
// shuffles are Fisher-Yates from the last element down.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace duelhall::engine {

using Seed = std::array<uint8_t, 32>;

// One ChaCha20 block: 16 words from the key (8 words), counter word 12 and words 13-15.
std::array<uint32_t, 16> chacha20_block(const std::array<uint32_t, 8>& key, uint32_t w12,
                                        uint32_t w13, uint32_t w14, uint32_t w15);

class Rng {
 public:
  explicit Rng(const Seed& seed = {});

  uint32_t next_u32();
  uint64_t next_u64();
  // Uniform integer in [0, bound); bound must be at least 1.
  uint32_t below(uint32_t bound);
  // Uniform integer in [lo, hi].
  int between(int lo, int hi) {
    return lo + static_cast<int>(below(static_cast<uint32_t>(hi - lo + 1)));
  }

  template <typename T>
  void shuffle(std::span<T> items) {
    for (size_t i = items.size(); i > 1; --i) {
      size_t j = below(static_cast<uint32_t>(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  const Seed& seed() const { return seed_; }
  // How many 32-bit words have been drawn; with the seed this is the whole state.
  uint64_t position() const { return position_; }
  void set_position(uint64_t position);

  bool operator==(const Rng& o) const { return seed_ == o.seed_ && position_ == o.position_; }

 private:
  void refill();

  Seed seed_;
  std::array<uint32_t, 8> key_{};
  std::array<uint32_t, 16> block_{};
  uint64_t position_ = 0;
  uint64_t block_index_ = ~uint64_t{0};  // which block block_ holds
};

// Seeds written as 64 hex digits (how the server publishes and stores them).
std::string seed_to_hex(const Seed& seed);
bool seed_from_hex(const std::string& hex, Seed& out);
// A seed derived from a small number, for tests, bots and benchmarks.
Seed seed_from_number(uint64_t n);

}  // namespace duelhall::engine
