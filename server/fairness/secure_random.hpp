// Randomness from the operating system's secure source (getrandom(2)), for what must be
// unpredictable to players: match seeds and reconnect tokens. Never used inside the engine, whose
// only randomness is the match's own seeded generator.
#pragma once

#include <string>

#include "core/rng.hpp"

namespace duelhall::fairness {

// A fresh match seed. Throws std::runtime_error if the OS source fails.
engine::Seed secure_seed();

// A fresh reconnect token: 32 random bytes as 64 hex digits. The store keeps only its hash.
std::string new_reconnect_token();

}  // namespace duelhall::fairness
