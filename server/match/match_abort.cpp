// A moderator ends a match in play as aborted (docs/moderation.md): no winner, every viewer told
// the reason, by force_end as a server fault would, so the log, the lobby and the players learn
// of the end the same way. The match knows nothing of moderators: the lobby checks the role and
// writes the audit log when `done` reports the outcome.
#include <spdlog/spdlog.h>

#include "fairness/server_ending.hpp"
#include "match/match.hpp"

namespace duelhall::server {

void Match::abort(std::string reason, std::function<void(ResultCode, std::string)> done) {
  run([this, reason = std::move(reason), done = std::move(done)](Outbox& out) {
    if (status_ == WAITING) {
      done(WRONG_MATCH_STATE, "the match has not started");
      return;
    }
    if (status_ != PLAYING) {
      done(MATCH_OVER, "the match has ended");
      return;
    }
    if (storage_wait_) {
      done(STORAGE_UNAVAILABLE, "the match is waiting for its store: try again");
      return;
    }
    spdlog::info("match {}: aborted by a moderator", id_);
    force_end(fairness::aborted_by_moderator(reason), {}, true, out);
    done(OK, {});
  });
}

}  // namespace duelhall::server
