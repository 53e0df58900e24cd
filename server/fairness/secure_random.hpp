// Randomness from the operating system's secure source (getrandom(2)), for what must be
// unpredictable to players: match seeds, reconnect tokens and invite codes, never a match
// generator or the standard library's engines. Never used inside the engine, whose only
// randomness is the match's own seeded generator. The server's one secure-random module.
#pragma once

#include <string>

#include "core/rng.hpp"

namespace duelhall::fairness {

// A fresh match seed. Throws std::runtime_error if the OS source fails.
engine::Seed secure_seed();

// A fresh reconnect token: 32 random bytes as 64 hex digits. The store keeps only its hash.
std::string new_reconnect_token();

// A short code for private matches (8 characters from an unambiguous alphabet, ~40 bits).
std::string invite_code();

// Compares secrets in time independent of where they differ.
bool same_secret(const std::string& a, const std::string& b);

}  // namespace duelhall::fairness
