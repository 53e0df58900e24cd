#include "fairness/text_escape.hpp"

namespace duelhall::fairness {
namespace {

bool needs_escape(unsigned char c) {
  return c < 0x21 || c == 0x7f || c == '%' || c == '&' || c == '=';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string escape_token(std::string_view text) {
  if (text.empty()) return "-";
  if (text == "-") return "%2D";
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (needs_escape(c)) {
      out.push_back('%');
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

std::optional<std::string> unescape_token(std::string_view token) {
  if (token == "-") return std::string();
  std::string out;
  out.reserve(token.size());
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '%') {
      if (needs_escape(static_cast<unsigned char>(token[i]))) return std::nullopt;
      out.push_back(token[i]);
      continue;
    }
    if (i + 2 >= token.size()) return std::nullopt;
    int hi = hex_value(token[i + 1]);
    int lo = hex_value(token[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi << 4 | lo));
    i += 2;
  }
  return out;
}

std::string encode_params(const std::map<std::string, std::string>& params) {
  if (params.empty()) return "-";
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out.push_back('&');
    out += escape_token(name);
    out.push_back('=');
    out += escape_token(value);
  }
  return out;
}

std::optional<std::map<std::string, std::string>> decode_params(std::string_view text) {
  std::map<std::string, std::string> params;
  if (text == "-") return params;
  while (!text.empty()) {
    size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    auto name = unescape_token(pair.substr(0, eq));
    auto value = unescape_token(pair.substr(eq + 1));
    if (!name || !value || pair.substr(0, eq).empty() || pair.substr(eq + 1).empty()) {
      return std::nullopt;
    }
    if (!params.emplace(std::move(*name), std::move(*value)).second) return std::nullopt;
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
    if (text.empty()) return std::nullopt;
  }
  return params;
}

}  // namespace duelhall::fairness
