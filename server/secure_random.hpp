// Secrets and match seeds come from the operating system's secure source (getrandom), never
// from a match generator or the standard library's engines. Seeds and reconnect tokens are
// fairness::secure_seed and fairness::new_reconnect_token (256 bits), shared with the store.
#pragma once

#include <string>

#include "fairness/secure_random.hpp"

namespace duelhall::server {

using fairness::secure_seed;
// Fills `size` bytes from the OS; throws std::runtime_error if the source fails.
void secure_bytes(void* out, size_t size);
// A short code for private matches (8 characters from an unambiguous alphabet, ~40 bits).
std::string invite_code();
// Compares secrets in time independent of where they differ.
bool same_secret(const std::string& a, const std::string& b);

}  // namespace duelhall::server
