#include "accounts/account_json.hpp"

#include <charconv>
#include <cstdio>

#include "accounts/credentials.hpp"

namespace duelhall::accounts {
namespace {

std::string number(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

JsonAnswer error(int status, std::string_view code, std::string_view reason) {
  return {status, "{\"error\":" + json_string(code) + ",\"reason\":" + json_string(reason) + "}"};
}

// The value of `key` in the query string, as an unsigned number; `fallback` when absent or bad.
uint64_t query_number(std::string_view query, std::string_view key, uint64_t fallback) {
  size_t at = 0;
  while (at < query.size()) {
    size_t end = query.find('&', at);
    if (end == std::string_view::npos) end = query.size();
    std::string_view pair = query.substr(at, end - at);
    if (pair.starts_with(key) && pair.size() > key.size() && pair[key.size()] == '=') {
      std::string_view digits = pair.substr(key.size() + 1);
      uint64_t value = 0;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc() && ptr == digits.data() + digits.size()) return value;
    }
    at = end + 1;
  }
  return fallback;
}

std::string history_json(const std::vector<storage::HistoryEntry>& entries) {
  std::string out = "[";
  for (const auto& e : entries) {
    if (out.size() > 1) out += ',';
    out += "{\"match_id\":" + std::to_string(e.match_id) + ",\"ruleset\":" + json_string(e.ruleset);
    out += ",\"seat\":" + std::to_string(e.seat) + ",\"result\":" + json_string(e.result);
    out += ",\"rated\":" + std::string(e.rated ? "true" : "false");
    if (e.rating_before && e.rating_after) {
      out += ",\"rating_before\":" + number(*e.rating_before, 2);
      out += ",\"rating_after\":" + number(*e.rating_after, 2);
      out += ",\"rating_change\":" + number(*e.rating_after - *e.rating_before, 2);
    }
    out += ",\"ended_ms\":" + std::to_string(e.ended_ms);
    out += ",\"replay\":" + json_string("/#/replay/" + std::to_string(e.match_id));
    out += ",\"export\":" + json_string("/matches/" + std::to_string(e.match_id) + "/export");
    out += ",\"opponents\":[";
    for (size_t i = 0; i < e.opponents.size(); ++i) {
      if (i) out += ',';
      out += "{\"seat\":" + std::to_string(e.opponents[i].seat) +
             ",\"name\":" + json_string(e.opponents[i].name) + "}";
    }
    out += "]}";
  }
  return out + "]";
}

std::string profile_json(AccountService& service, const AccountView& account) {
  std::string out = "{\"id\":" + std::to_string(account.id) +
                    ",\"name\":" + json_string(account.name) + ",\"ratings\":[";
  bool first = true;
  for (const auto& r : service.store().ratings(account.id)) {
    if (!first) out += ',';
    first = false;
    out += "{\"ruleset\":" + json_string(r.ruleset) + ",\"rating\":" + number(r.rating, 2) +
           ",\"deviation\":" + number(r.deviation, 2) +
           ",\"volatility\":" + number(r.volatility, 6) + ",\"games\":" + std::to_string(r.games) +
           ",\"provisional\":" + (service.provisional(r.deviation) ? "true" : "false") + "}";
  }
  out += "],\"history\":" +
         history_json(service.store().history(account.id, kDefaultPage, std::nullopt));
  return out + "}";
}

std::string_view bearer(std::string_view authorization) {
  constexpr std::string_view kScheme = "Bearer ";
  if (!authorization.starts_with(kScheme)) return {};
  return authorization.substr(kScheme.size());
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += ch;  // UTF-8 passes through (names were checked when they were stored)
    }
  }
  return out + "\"";
}

std::optional<JsonAnswer> answer_accounts_api(AccountService* service, std::string_view method,
                                              std::string_view target,
                                              std::string_view authorization) {
  const size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  const bool is_api = path == "/api/me" || path == "/api/session" ||
                      path.starts_with("/api/accounts/") || path.starts_with("/api/leaderboard/");
  if (!is_api) return std::nullopt;
  if (!service) return error(404, "ACCOUNTS_DISABLED", "this server offers no accounts");
  if (path.size() > kMaxFieldBytes) return error(414, "FIELD_TOO_LONG", "path too long");
  const size_t limit = std::min<uint64_t>(
      std::max<uint64_t>(query_number(query, "limit", kDefaultPage), 1), kMaxPage);

  if (path == "/api/me" || path == "/api/session") {
    const std::string_view token = bearer(authorization);
    auto account = service->from_session(token);
    if (!account) return error(401, "BAD_SESSION", "the session is unknown, expired or revoked");
    if (path == "/api/session") {
      if (method != "DELETE") return error(405, "UNKNOWN_COMMAND", "DELETE signs the session out");
      service->sign_out(session_hash(token));
      return JsonAnswer{200, "{\"signed_out\":true}", session_hash(token), account->id};
    }
    return JsonAnswer{200, profile_json(*service, *account)};
  }
  if (method != "GET" && method != "HEAD") return error(405, "UNKNOWN_COMMAND", "GET only");
  if (path.starts_with("/api/leaderboard/")) {
    const std::string_view ruleset = path.substr(std::string_view("/api/leaderboard/").size());
    const size_t offset = query_number(query, "offset", 0);
    std::string out = "{\"ruleset\":" + json_string(ruleset) +
                      ",\"offset\":" + std::to_string(offset) + ",\"entries\":[";
    bool first = true;
    for (const auto& row : service->store().leaderboard(
             ruleset, service->config().provisional_deviation, offset, limit)) {
      if (!first) out += ',';
      first = false;
      out += "{\"rank\":" + std::to_string(row.rank) + ",\"name\":" + json_string(row.name) +
             ",\"rating\":" + number(row.rating, 2) + ",\"deviation\":" + number(row.deviation, 2) +
             ",\"games\":" + std::to_string(row.games) + "}";
    }
    return JsonAnswer{200, out + "]}"};
  }
  std::string_view rest = path.substr(std::string_view("/api/accounts/").size());
  const bool matches = rest.ends_with("/matches");
  if (matches) rest.remove_suffix(std::string_view("/matches").size());
  auto account = service->find(rest);
  if (!account) return error(404, "UNKNOWN_ACCOUNT", "no such account");
  if (!matches) return JsonAnswer{200, profile_json(*service, *account)};
  std::optional<int64_t> before;
  if (const uint64_t b = query_number(query, "before", 0); b != 0) {
    before = static_cast<int64_t>(std::min<uint64_t>(b, INT64_MAX));
  }
  return JsonAnswer{200, "{\"name\":" + json_string(account->name) + ",\"matches\":" +
                             history_json(service->store().history(account->id, limit, before)) +
                             "}"};
}

}  // namespace duelhall::accounts
