// The replays room's door (docs/protocol.md): the handlers the dispatcher routes ListReplays,
// ReplayView, ExportMatch and ImportMatch to, and the HTTP export of an ended match's record. A
// live match is never served here (its seed, chance log and other seats' views would reveal
// hidden cards); its own players and spectators follow it through the match.
#pragma once

#include <boost/beast/http.hpp>
#include <optional>

#include "hall/call.hpp"
#include "replays/replay_host.hpp"

namespace duelhall::server {

Handled handle_list_replays(ReplayHost& hub, Call& call, const ListReplays& request);
Handled handle_replay_view(ReplayHost& hub, Call& call, const ReplayView& request);
Handled handle_export_match(ReplayHost& hub, Call& call, const ExportMatch& request);
Handled handle_import_match(ReplayHost& hub, Call& call, const ImportMatch& request);

// Answers GET /matches/<id>/export (replay_export.cpp), so a browser can download the file for
// duelhall-verify; nullopt for any other target.
std::optional<boost::beast::http::message_generator> answer_export(
    ReplayHost& hub, const boost::beast::http::request<boost::beast::http::string_body>& request);

}  // namespace duelhall::server
