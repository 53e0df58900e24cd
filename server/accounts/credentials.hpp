// Account names and passwords: the rules they follow and how a password is kept.
//
// A name is 3 to 20 characters, ASCII letters, digits, '_' and '-', starting with a letter or a
// digit; two names that differ only by case, or look alike (accounts/name_skeleton.hpp), are the
// same name (name_key). A password is 8 to 128 characters (counted as Unicode code points), not
// only white space and not one of the most common passwords, and is kept only as an Argon2id
// hash from
// libsodium's crypto_pwhash_str, whose string carries its own salt and cost.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace duelhall::accounts {

inline constexpr size_t kMinNameChars = 3;
inline constexpr size_t kMaxNameChars = 20;
inline constexpr size_t kMinPasswordChars = 8;
inline constexpr size_t kMaxPasswordChars = 128;
// Longer fields are refused before anything else looks at them (FIELD_TOO_LONG).
inline constexpr size_t kMaxFieldBytes = 512;

// Why `name` is not a valid account name; nullopt: it is.
std::optional<std::string> name_problem(std::string_view name);
// The name as it is compared and stored in the unique name_key column: name_skeleton().
std::string name_key(std::string_view name);
// Why `password` is not acceptable (too short, too long, not UTF-8, only white space, one of
// the common passwords of common_passwords.hpp); nullopt: it is.
std::optional<std::string> password_problem(std::string_view password);

// Initialises libsodium once; false if it cannot be (the server then offers no accounts).
bool sodium_ready();
// An Argon2id hash string of `password` (throws std::runtime_error when out of memory).
std::string hash_password(std::string_view password);
// Whether `password` matches `hash`; the comparison takes the same time wherever they differ.
bool verify_password(std::string_view password, const std::string& hash);
// Compares two secrets (or their hashes) in time independent of their contents.
bool same_secret(std::string_view a, std::string_view b);

}  // namespace duelhall::accounts
