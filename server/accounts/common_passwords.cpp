#include "accounts/common_passwords.hpp"

#include <string>
#include <unordered_set>

namespace duelhall::accounts {
namespace {

// The UTF-8 spaces a password may be made of besides ASCII's: no-break, en/em and the other
// typographic spaces, zero-width ones, the ideographic space and the byte-order mark.
constexpr std::string_view kUnicodeSpaces[] = {
    "\u00a0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005",
    "\u2006", "\u2007", "\u2008", "\u2009", "\u200a", "\u200b", "\u200c", "\u200d",
    "\u2028", "\u2029", "\u202f", "\u205f", "\u2060", "\u3000", "\ufeff"};

bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

const std::unordered_set<std::string_view>& common_set() {
  static const std::unordered_set<std::string_view> set = [] {
    std::unordered_set<std::string_view> out;
    const std::string_view text = common_passwords_text();
    size_t at = 0;
    while (at < text.size()) {
      size_t end = text.find('\n', at);
      if (end == std::string_view::npos) end = text.size();
      if (end > at) out.insert(text.substr(at, end - at));
      at = end + 1;
    }
    return out;
  }();
  return set;
}

}  // namespace

bool is_all_space(std::string_view password) {
  size_t at = 0;
  while (at < password.size()) {
    if (is_ascii_space(password[at])) {
      ++at;
      continue;
    }
    bool matched = false;
    for (std::string_view space : kUnicodeSpaces) {
      if (password.substr(at).starts_with(space)) {
        at += space.size();
        matched = true;
        break;
      }
    }
    if (!matched) return false;
  }
  return true;
}

bool is_common_password(std::string_view password) {
  while (!password.empty() && is_ascii_space(password.front())) password.remove_prefix(1);
  while (!password.empty() && is_ascii_space(password.back())) password.remove_suffix(1);
  std::string lower(password);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return common_set().contains(lower);
}

}  // namespace duelhall::accounts
