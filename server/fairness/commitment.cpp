#include "fairness/commitment.hpp"

#include <openssl/sha.h>

namespace duelhall::fairness {

Digest sha256(std::string_view bytes) {
  Digest digest{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest.data());
  return digest;
}

std::string to_hex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(digest.size() * 2);
  for (uint8_t b : digest) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

std::string commitment_preimage(const engine::Seed& seed, std::string_view engine_version) {
  std::string bytes;
  bytes.append(kCommitmentDomain);
  bytes.push_back('\0');
  bytes.append(engine_version);
  bytes.push_back('\0');
  bytes.append(reinterpret_cast<const char*>(seed.data()), seed.size());
  return bytes;
}

std::string seed_commitment(const engine::Seed& seed, std::string_view engine_version) {
  return to_hex(sha256(commitment_preimage(seed, engine_version)));
}

}  // namespace duelhall::fairness
