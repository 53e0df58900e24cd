#include "accounts/credentials.hpp"

#include <sodium.h>

#include <stdexcept>

#include "accounts/common_passwords.hpp"
#include "accounts/name_skeleton.hpp"

namespace duelhall::accounts {
namespace {

// OWASP's Argon2id minimum (19 MiB, 2 passes): some tens of milliseconds a hash, so one sign-in
// does not hold an I/O thread long, while a stolen hash costs an attacker as much per guess.
constexpr unsigned long long kOpsLimit = 2;
constexpr size_t kMemLimit = 19 * 1024 * 1024;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// Unicode code points in `text`, or nullopt when it is not valid UTF-8.
std::optional<size_t> utf8_length(std::string_view text) {
  size_t count = 0;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t extra = 0;
    if (c < 0x80) {
      extra = 0;
    } else if ((c & 0xe0) == 0xc0 && c >= 0xc2) {
      extra = 1;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2;
    } else if ((c & 0xf8) == 0xf0 && c <= 0xf4) {
      extra = 3;
    } else {
      return std::nullopt;
    }
    if (i + extra >= text.size()) return std::nullopt;  // cut short
    for (size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return std::nullopt;
    }
    i += extra + 1;
    ++count;
  }
  return count;
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
  if (name.size() < kMinNameChars || name.size() > kMaxNameChars) {
    return "a name is " + std::to_string(kMinNameChars) + " to " + std::to_string(kMaxNameChars) +
           " characters";
  }
  for (char c : name) {
    if (!is_name_char(c)) return "a name has only letters a-z, digits, '_' and '-'";
  }
  if (name[0] == '_' || name[0] == '-') return "a name starts with a letter or a digit";
  return std::nullopt;
}

std::string name_key(std::string_view name) {
  return name_skeleton(name);
}

std::optional<std::string> password_problem(std::string_view password) {
  const auto length = utf8_length(password);
  if (!length) return "the password is not valid UTF-8";
  if (*length < kMinPasswordChars) {
    return "a password has at least " + std::to_string(kMinPasswordChars) + " characters";
  }
  if (*length > kMaxPasswordChars) {
    return "a password has at most " + std::to_string(kMaxPasswordChars) + " characters";
  }
  if (is_all_space(password)) return "a password is more than white space";
  if (is_common_password(password)) {
    return "that password is one of the most common ones, which are tried first: choose another";
  }
  return std::nullopt;
}

bool sodium_ready() {
  static const bool ready = sodium_init() >= 0;
  return ready;
}

std::string hash_password(std::string_view password) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), kOpsLimit, kMemLimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("out of memory while hashing a password");
  }
  return out;
}

bool verify_password(std::string_view password, const std::string& hash) {
  if (hash.empty()) return false;
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace duelhall::accounts
