// The passwords refused as too common: server/accounts/common_passwords.txt, one a line,
// lower-case, compiled into the server. tools/common_passwords.py writes that list from words
// that every study of leaked passwords names (password, qwerty, letmein, ...) and the usual ways
// of stretching them to eight characters (docs/accounts.md).
#pragma once

#include <string_view>

namespace duelhall::accounts {

// The list as compiled in: lines of lower-case passwords.
std::string_view common_passwords_text();
// Whether `password`, lower-cased and without surrounding white space, is on the list.
bool is_common_password(std::string_view password);
// Whether `password` is nothing but white space (or invisible spaces), however long.
bool is_all_space(std::string_view password);

}  // namespace duelhall::accounts
