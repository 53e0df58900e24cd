#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <numeric>

#include "core/rng.hpp"

using duelhall::engine::chacha20_block;
using duelhall::engine::Rng;
using duelhall::engine::Seed;
using duelhall::engine::seed_from_hex;
using duelhall::engine::seed_from_number;
using duelhall::engine::seed_to_hex;

TEST_CASE("ChaCha20 block matches RFC 8439 section 2.3.2") {
  std::array<uint32_t, 8> key{};
  for (uint32_t i = 0; i < 8; ++i) {
    key[i] = (4 * i) | (4 * i + 1) << 8 | (4 * i + 2) << 16 | (4 * i + 3) << 24;
  }
  auto block = chacha20_block(key, 1, 0x09000000, 0x4a000000, 0);
  const std::array<uint32_t, 16> expected = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
                                             0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
                                             0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                             0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
  CHECK(block == expected);
}

TEST_CASE("Rng golden outputs for a fixed seed are pinned") {
  Rng rng(seed_from_number(42));
  std::array<uint32_t, 4> words{};
  for (auto& w : words) w = rng.next_u32();
  // Pinned: a change here changes every recorded match. Never update without a version bump.
  const std::array<uint32_t, 4> expected = {0x26e5761f, 0x6ae30a51, 0x5c8b5c62, 0xb4eb7f59};
  CHECK(words == expected);
  Rng dice(seed_from_number(42));
  std::array<uint32_t, 8> rolls{};
  for (auto& r : rolls) r = dice.below(6) + 1;
  const std::array<uint32_t, 8> expected_rolls = {1, 3, 3, 5, 5, 5, 6, 1};
  CHECK(rolls == expected_rolls);
}

TEST_CASE("Rng position restores the stream exactly") {
  Rng a(seed_from_number(7));
  for (int i = 0; i < 37; ++i) a.next_u32();
  Rng b(seed_from_number(7));
  b.set_position(a.position());
  for (int i = 0; i < 100; ++i) REQUIRE(a.next_u32() == b.next_u32());
}

TEST_CASE("Rng bounded integers stay in range and cover it evenly") {
  Rng rng(seed_from_number(1));
  std::array<int, 6> counts{};
  const int n = 60000;
  for (int i = 0; i < n; ++i) {
    uint32_t v = rng.below(6);
    REQUIRE(v < 6);
    ++counts[v];
  }
  for (int c : counts) {
    CHECK(c > n / 6 - 500);
    CHECK(c < n / 6 + 500);
  }
  CHECK(rng.below(1) == 0);
  for (int i = 0; i < 1000; ++i) {
    int v = rng.between(-3, 3);
    REQUIRE(v >= -3);
    REQUIRE(v <= 3);
  }
}

TEST_CASE("Fisher-Yates shuffle is a permutation and depends on the seed") {
  std::vector<int> a(54);
  std::iota(a.begin(), a.end(), 0);
  std::vector<int> b = a;
  Rng r1(seed_from_number(3));
  Rng r2(seed_from_number(4));
  r1.shuffle(std::span<int>(a));
  r2.shuffle(std::span<int>(b));
  CHECK(a != b);
  std::sort(a.begin(), a.end());
  std::vector<int> sorted(54);
  std::iota(sorted.begin(), sorted.end(), 0);
  CHECK(a == sorted);
}

TEST_CASE("Seeds round-trip through hex and reject bad text") {
  Seed seed = seed_from_number(0x1234567890abcdefull);
  seed[31] = 0xff;
  Seed back{};
  REQUIRE(seed_from_hex(seed_to_hex(seed), back));
  CHECK(back == seed);
  CHECK_FALSE(seed_from_hex("abc", back));
  CHECK_FALSE(seed_from_hex(std::string(64, 'g'), back));
}
