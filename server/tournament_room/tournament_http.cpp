// The tournaments over HTTP, for a community site that shows them (docs/tournaments.md, "HTTP"):
// GET /api/tournaments (the listing) and GET /api/tournaments/<id> (one tournament's standings
// and games), as JSON with the field names of tournaments.proto.
#include <google/protobuf/util/json_util.h>

#include <charconv>

#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {
namespace {

constexpr std::string_view kPrefix = "/api/tournaments";

std::string json_of(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  options.always_print_enums_as_ints = false;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  return out;
}

}  // namespace

std::optional<TournamentRoom::HttpAnswer> TournamentRoom::answer_http(std::string_view target) {
  if (const size_t query = target.find('?'); query != std::string_view::npos) {
    target = target.substr(0, query);
  }
  if (target.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = target.substr(kPrefix.size());
  if (rest.empty() || rest == "/") return HttpAnswer{200, json_of(listing(100))};
  if (rest.front() != '/') return std::nullopt;
  rest.remove_prefix(1);
  uint64_t id = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), id);
  if (error != std::errc() || end != rest.data() + rest.size()) {
    return HttpAnswer{404, R"({"error":"no such tournament"})"};
  }
  const std::optional<TournamentDetail> found = detail(id);
  if (!found) return HttpAnswer{404, R"({"error":"no such tournament"})"};
  return HttpAnswer{200, json_of(*found)};
}

}  // namespace duelhall::server
