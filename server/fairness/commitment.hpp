// The seed commitment. At creation the server publishes
//
//   commitment = SHA-256( "duelhall-seed-v1" || 0x00 || engine version (ASCII) || 0x00 || seed )
//
// where the seed is the match's 32 raw bytes. Binding the engine version means a revealed seed
// cannot be re-judged under another engine whose rules would give other shuffles. The zero bytes
// separate the fields so that no two (version, seed) pairs share a preimage (the version holds no
// zero byte). When the match ends the seed is revealed and anyone can recompute this.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/rng.hpp"

namespace duelhall::fairness {

using Digest = std::array<uint8_t, 32>;

inline constexpr std::string_view kCommitmentDomain = "duelhall-seed-v1";

Digest sha256(std::string_view bytes);
std::string to_hex(const Digest& digest);

// The exact bytes hashed into the commitment (documented above, in docs/storage.md).
std::string commitment_preimage(const engine::Seed& seed, std::string_view engine_version);
// The commitment as 64 lowercase hex digits, the form published and stored.
std::string seed_commitment(const engine::Seed& seed, std::string_view engine_version);

}  // namespace duelhall::fairness
