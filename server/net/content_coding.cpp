#include "net/content_coding.hpp"

#include <charconv>
#include <optional>

namespace duelhall::server {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// The q parameter of one element's parameters ("q=0.5"); 1 when absent, 0 when unreadable
// (a client that wrote it meant something less than full acceptance).
double quality_of(std::string_view params) {
  while (!params.empty()) {
    const auto semi = params.find(';');
    const std::string_view param = trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
    if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
    const std::string_view number = trim(param.substr(2));
    double q = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), q);
    if (ec != std::errc() || end != number.data() + number.size() || q < 0 || q > 1) return 0;
    return q;
  }
  return 1;
}

}  // namespace

double coding_quality(std::string_view header, std::string_view coding) {
  std::optional<double> named, star;
  while (!header.empty()) {
    const auto comma = header.find(',');
    const std::string_view element = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    const auto semi = element.find(';');
    const std::string_view name = trim(element.substr(0, semi));
    const double q = semi == std::string_view::npos ? 1.0 : quality_of(element.substr(semi + 1));
    if (same_name(name, coding)) named = q;
    if (name == "*") star = q;
  }
  return named ? *named : star.value_or(0);
}

ContentCoding pick_coding(std::string_view header, bool have_brotli, bool have_gzip) {
  const double brotli = have_brotli ? coding_quality(header, "br") : 0;
  const double gzip = have_gzip ? coding_quality(header, "gzip") : 0;
  if (brotli > 0 && brotli >= gzip) return ContentCoding::kBrotli;
  if (gzip > 0) return ContentCoding::kGzip;
  return ContentCoding::kIdentity;
}

std::string_view coding_name(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::kBrotli:
      return "br";
    case ContentCoding::kGzip:
      return "gzip";
    case ContentCoding::kIdentity:
      break;
  }
  return "identity";
}

std::string_view coding_suffix(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::kBrotli:
      return ".br";
    case ContentCoding::kGzip:
      return ".gz";
    case ContentCoding::kIdentity:
      break;
  }
  return "";
}

}  // namespace duelhall::server
