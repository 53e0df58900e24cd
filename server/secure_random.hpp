// Secrets and match seeds come from the operating system's secure source (getrandom), never
// from a match generator or the standard library's engines.
#pragma once

#include <string>

#include "core/rng.hpp"

namespace duelhall::server {

// Fills `size` bytes from the OS; throws std::runtime_error if the source fails.
void secure_bytes(void* out, size_t size);
engine::Seed secure_seed();
// 128 random bits as 32 lowercase hex digits.
std::string secure_token();
// A short code for private matches (8 characters from an unambiguous alphabet, ~40 bits).
std::string invite_code();
// Compares secrets in time independent of where they differ.
bool same_secret(const std::string& a, const std::string& b);

}  // namespace duelhall::server
