// Export of a stored match as a record (write it with fairness::write_record): the match is
// rebuilt by engine::replay so that the record carries the chance log the seed draws. The seed
// and chance log are included only once the match has ended.
#pragma once

#include <optional>
#include <string>

#include "core/registry.hpp"
#include "fairness/match_record.hpp"
#include "storage/match_store.hpp"

namespace duelhall::storage {

// Null with the reason in `error` when the match cannot be rebuilt (unknown ruleset, a refused
// step: a damaged log or an engine that changed under it).
std::optional<fairness::MatchRecord> export_record(const engine::Registry& registry,
                                                   const StoredMatch& stored, std::string& error);

}  // namespace duelhall::storage
