// The ActionLog over the SQLite store: every match's writes go through one GroupCommitLog, whose
// writer thread commits many matches' actions per transaction and reports each action durable
// once its transaction is synced. The match ids are the hub's, so a match keeps its id across a
// restart and in the replay listing.
#pragma once

#include <memory>

#include "match/action_log.hpp"
#include "storage/group_commit.hpp"

namespace duelhall::server {

class DurableLogFactory final : public ActionLogFactory {
 public:
  explicit DurableLogFactory(storage::GroupCommitLog& log) : log_(log) {}
  std::unique_ptr<ActionLog> open(uint64_t match_id) override;

 private:
  storage::GroupCommitLog& log_;
};

}  // namespace duelhall::server
