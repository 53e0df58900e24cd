#include "core/rng.hpp"

namespace duelhall::engine {
namespace {

constexpr uint32_t rotl(uint32_t v, int c) {
  return (v << c) | (v >> (32 - c));
}

inline void quarter_round(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d) {
  a += b;
  d ^= a;
  d = rotl(d, 16);
  c += d;
  b ^= c;
  b = rotl(b, 12);
  a += b;
  d ^= a;
  d = rotl(d, 8);
  c += d;
  b ^= c;
  b = rotl(b, 7);
}

}  // namespace

std::array<uint32_t, 16> chacha20_block(const std::array<uint32_t, 8>& key, uint32_t w12,
                                        uint32_t w13, uint32_t w14, uint32_t w15) {
  const std::array<uint32_t, 16> input = {
      0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1], key[2], key[3],
      key[4],     key[5],     key[6],     key[7],     w12,    w13,    w14,    w15};
  std::array<uint32_t, 16> x = input;
  for (int i = 0; i < 10; ++i) {
    quarter_round(x[0], x[4], x[8], x[12]);
    quarter_round(x[1], x[5], x[9], x[13]);
    quarter_round(x[2], x[6], x[10], x[14]);
    quarter_round(x[3], x[7], x[11], x[15]);
    quarter_round(x[0], x[5], x[10], x[15]);
    quarter_round(x[1], x[6], x[11], x[12]);
    quarter_round(x[2], x[7], x[8], x[13]);
    quarter_round(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i) x[i] += input[i];
  return x;
}

Rng::Rng(const Seed& seed) : seed_(seed) {
  for (int i = 0; i < 8; ++i) {
    key_[i] = static_cast<uint32_t>(seed[4 * i]) | static_cast<uint32_t>(seed[4 * i + 1]) << 8 |
              static_cast<uint32_t>(seed[4 * i + 2]) << 16 |
              static_cast<uint32_t>(seed[4 * i + 3]) << 24;
  }
}

void Rng::refill() {
  block_index_ = position_ / 16;
  block_ = chacha20_block(key_, static_cast<uint32_t>(block_index_),
                          static_cast<uint32_t>(block_index_ >> 32), 0, 0);
}

void Rng::set_position(uint64_t position) {
  position_ = position;
}

uint32_t Rng::next_u32() {
  if (position_ / 16 != block_index_) refill();
  return block_[position_++ % 16];
}

uint64_t Rng::next_u64() {
  uint64_t lo = next_u32();
  uint64_t hi = next_u32();
  return lo | hi << 32;
}

uint32_t Rng::below(uint32_t bound) {
  // Lemire, "Fast Random Integer Generation in an Interval" (2019): unbiased by rejection.
  uint64_t m = static_cast<uint64_t>(next_u32()) * bound;
  auto low = static_cast<uint32_t>(m);
  if (low < bound) {
    const uint32_t threshold = (0u - bound) % bound;
    while (low < threshold) {
      m = static_cast<uint64_t>(next_u32()) * bound;
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

std::string seed_to_hex(const Seed& seed) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (uint8_t b : seed) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

bool seed_from_hex(const std::string& hex, Seed& out) {
  if (hex.size() != 64) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < 32; ++i) {
    int hi = nibble(hex[2 * i]);
    int lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

Seed seed_from_number(uint64_t n) {
  Seed s{};
  for (int i = 0; i < 8; ++i) s[i] = static_cast<uint8_t>(n >> (8 * i));
  return s;
}

}  // namespace duelhall::engine
