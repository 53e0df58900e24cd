#include "replays/replay_export.hpp"

#include <charconv>

#include "replays/replay_handlers.hpp"

#include "fairness/record_format.hpp"
#include "storage/match_export.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

namespace http = boost::beast::http;

ExportAnswer export_match_record(ReplayHost& hub, uint64_t match_id) {
  storage::MatchStore* store = hub.store();
  if (!store) return {STORAGE_DISABLED, "this server stores no matches", {}};
  auto stored = store->load_match(static_cast<storage::MatchId>(match_id));
  // A match this node hosts may not be stored yet: its creation and its end reach the store
  // through the writer's queue, after the players were told.
  if (!stored && hub.find_match(match_id)) {
    return {MATCH_NOT_ENDED, "the match is being played, or is still being stored", {}};
  }
  if (!stored) return {UNKNOWN_MATCH, "no stored match with that id", {}};
  if (stored->summary.status == storage::MatchStatus::kLive) {
    return {MATCH_NOT_ENDED,
            "the match is being played, or its end is still being stored: its record "
            "opens once the end is stored",
            {}};
  }
  std::string error;
  auto record = storage::export_record(hub.registry(), *stored, error);
  if (!record) return {INTERNAL_ERROR, "the match does not replay: " + error, {}};
  return {OK, {}, fairness::write_record(*record)};
}

std::optional<http::message_generator> answer_export(
    ReplayHost& hub, const http::request<http::string_body>& request) {
  constexpr std::string_view kPrefix = "/matches/";
  constexpr std::string_view kSuffix = "/export";
  std::string_view target = request.target();
  target = target.substr(0, target.find('?'));
  if (!target.starts_with(kPrefix) || !target.ends_with(kSuffix)) return std::nullopt;
  const std::string_view digits =
      target.substr(kPrefix.size(), target.size() - kPrefix.size() - kSuffix.size());
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  const ExportAnswer answer = export_match_record(hub, id);
  http::status status = http::status::ok;
  switch (answer.code) {
    case OK:
      break;
    case MATCH_NOT_ENDED:
      status = http::status::conflict;
      break;
    case INTERNAL_ERROR:
      status = http::status::internal_server_error;
      break;
    default:
      status = http::status::not_found;
  }
  http::response<http::string_body> response{status, request.version()};
  response.set(http::field::server, "duelhall");
  response.set(http::field::content_type, "text/plain; charset=utf-8");
  response.set(http::field::cache_control, "no-store");
  if (answer.code == OK) {
    response.set(http::field::content_disposition,
                 "attachment; filename=\"duelhall-match-" + std::to_string(id) + ".txt\"");
  }
  response.keep_alive(request.keep_alive());
  if (request.method() != http::verb::head) {
    response.body() = answer.code == OK ? answer.record : answer.reason + "\n";
  }
  response.prepare_payload();
  return http::message_generator(std::move(response));
}

}  // namespace duelhall::server
