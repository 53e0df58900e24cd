// Export of an ended match's record, shared by the ExportMatch command and HTTP
// GET /matches/<id>/export (so a browser can download the file for duelhall-verify).
#pragma once

#include <boost/beast/http.hpp>
#include <optional>
#include <string>

#include "lobby/hub.hpp"

namespace duelhall::server {

struct ExportAnswer {
  ResultCode code = OK;
  std::string reason;
  std::string record;  // the `duelhall-match 1` text when OK
};

// Never for a live match (its seed and chance log would reveal hidden cards).
ExportAnswer export_match_record(Hub& hub, uint64_t match_id);

// Answers GET /matches/<id>/export; nullopt for any other target.
std::optional<boost::beast::http::message_generator> answer_export(
    Hub& hub, const boost::beast::http::request<boost::beast::http::string_body>& request);

}  // namespace duelhall::server
