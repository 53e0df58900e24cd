// Export of an ended match's record, shared by the ExportMatch command and HTTP
// GET /matches/<id>/export (answer_export, replay_handlers.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "envelope.pb.h"
#include "replays/replay_host.hpp"

namespace duelhall::server {

struct ExportAnswer {
  ResultCode code = OK;
  std::string reason;
  std::string record;  // the `duelhall-match 1` text when OK
};

// Never for a live match (its seed and chance log would reveal hidden cards).
ExportAnswer export_match_record(ReplayHost& hub, uint64_t match_id);

}  // namespace duelhall::server
