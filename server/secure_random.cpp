#include "secure_random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>

namespace duelhall::server {

void secure_bytes(void* out, size_t size) {
  auto* p = static_cast<unsigned char*>(out);
  while (size > 0) {
    ssize_t got = getrandom(p, size, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("getrandom failed");
    }
    p += got;
    size -= static_cast<size_t>(got);
  }
}

std::string invite_code() {
  static const char* alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";  // 32 symbols
  unsigned char raw[8];
  secure_bytes(raw, sizeof raw);
  std::string out;
  for (unsigned char b : raw) out.push_back(alphabet[b & 31]);
  return out;
}

bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace duelhall::server
