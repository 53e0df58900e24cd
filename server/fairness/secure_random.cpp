#include "fairness/secure_random.hpp"

#include <openssl/crypto.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace duelhall::fairness {
namespace {

void fill_secure(uint8_t* out, size_t size) {
  size_t filled = 0;
  while (filled < size) {
    // Blocks only until the kernel's pool is first initialised, then never.
    ssize_t got = getrandom(out + filled, size - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    filled += static_cast<size_t>(got);
  }
}

}  // namespace

engine::Seed secure_seed() {
  engine::Seed seed{};
  fill_secure(seed.data(), seed.size());
  return seed;
}

std::string new_reconnect_token() {
  // The same shape as a seed: 256 bits written as hex.
  return engine::seed_to_hex(secure_seed());
}

std::string invite_code() {
  static const char* alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";  // 32 symbols
  uint8_t raw[8];
  fill_secure(raw, sizeof raw);
  std::string out;
  for (uint8_t b : raw) out.push_back(alphabet[b & 31]);
  return out;
}

bool same_secret(const std::string& a, const std::string& b) {
  // The length of a token or invite code is public; only its bytes are compared in constant time.
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace duelhall::fairness
