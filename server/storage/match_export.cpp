#include "storage/match_export.hpp"

namespace duelhall::storage {

std::optional<fairness::MatchRecord> export_record(const engine::Registry& registry,
                                                   const StoredMatch& stored, std::string& error) {
  auto state = engine::replay(registry, stored.config, stored.steps, error);
  if (!state) return std::nullopt;
  const bool ended = stored.summary.status != MatchStatus::kLive;
  fairness::MatchRecord record =
      fairness::make_record(*state, stored.summary.names, stored.summary.engine_version, ended);
  // The stored commitment is the one that was published; a record must carry that one.
  record.commitment = stored.summary.commitment;
  if (ended && stored.summary.outcome) record.outcome = stored.summary.outcome;
  return record;
}

}  // namespace duelhall::storage
