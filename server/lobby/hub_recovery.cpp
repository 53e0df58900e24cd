// The hub's side of recovery: a match rebuilt from its stored log (after a restart, or adopted
// from another node of a cluster) joins the registry, and its players' seats wait for them, by
// their tokens' hashes, for the grace period.
#include <boost/asio/steady_timer.hpp>
#include <set>

#include "lobby/hub.hpp"
#include "match/match.hpp"

namespace duelhall::server {

namespace net = boost::asio;

void Hub::recover(RecoveredMatch recovered) {
  const engine::RulesetInfo* info = registry_.find(recovered.hosted.settings().ruleset());
  if (!info) return;  // main.cpp replayed it, so the ruleset exists
  std::vector<bool> humans;
  for (const auto& hash : recovered.token_hashes) humans.push_back(!hash.empty());
  auto log = logs_->open(recovered.id);
  if (recovered.epoch != 0) cluster_claimed(*log, recovered.id, recovered.epoch);
  auto match = std::make_shared<Match>(
      *this, recovered.id, *info, recovered.hosted.settings(), recovered.hosted.invite_code(),
      std::make_shared<Player>(0, recovered.hosted.host(), ""), std::move(log));
  match->recover(std::move(recovered.state), recovered.names, humans,
                 std::move(recovered.spectators), std::move(recovered.ending));
  {
    std::lock_guard lock(mutex_);
    next_match_ = std::max(next_match_, recovered.id + 1);
    matches_[recovered.id] = match;
    remote_listings_.erase(recovered.id);  // adopted: the old node's entry is a ghost
    for (size_t i = 0; i < recovered.token_hashes.size(); ++i) {
      if (recovered.token_hashes[i].empty()) continue;
      recovered_seats_[recovered.token_hashes[i]].push_back(
          {recovered.id, static_cast<int>(i),
           i < recovered.names.size() ? recovered.names[i] : ""});
    }
  }
  if (recovered.epoch == 0) cluster_match_opened(recovered.id);
}

void Hub::arm_recovery_grace() {
  // The seats recovered so far get the grace period from now: a match recovered later (adopted
  // from another node of a cluster) gets its own when it is.
  std::set<uint64_t> armed;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [hash, seats] : recovered_seats_) {
      for (const RecoveredSeat& seat : seats) armed.insert(seat.match);
    }
  }
  auto timer =
      std::make_shared<net::steady_timer>(io_, std::chrono::seconds(config_.grace_seconds));
  timer->async_wait([self = shared_from_this(), timer, armed](boost::system::error_code ec) {
    if (ec) return;
    std::vector<std::shared_ptr<Match>> matches;
    {
      std::lock_guard lock(self->mutex_);
      auto& waiting = self->recovered_seats_;
      for (auto it = waiting.begin(); it != waiting.end();) {
        std::erase_if(it->second,
                      [&](const RecoveredSeat& seat) { return armed.count(seat.match) > 0; });
        it = it->second.empty() ? waiting.erase(it) : std::next(it);
      }
      for (uint64_t id : armed) {
        if (auto it = self->matches_.find(id); it != self->matches_.end()) {
          matches.push_back(it->second);
        }
      }
    }
    for (auto& match : matches) match->recovery_grace_over();
  });
}

}  // namespace duelhall::server
