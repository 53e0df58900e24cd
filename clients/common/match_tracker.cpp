#include "match_tracker.hpp"

#include "wire_diff.hpp"

namespace duelhall::client {

bool MatchTracker::handle(const ServerMessage& message) {
  if (message.has_snapshot()) {
    const MatchSnapshot& s = message.snapshot();
    TrackedMatch& t = matches_[s.match().match_id()];
    t.seat = s.seat();
    t.seq = s.seq();
    t.view = s.view();
    t.legal.assign(s.legal().begin(), s.legal().end());
    t.status = s.match().status();
    t.ended = s.has_outcome();
    t.outcome = s.outcome();
    t.broken = false;
    return true;
  }
  if (!message.has_update()) return false;
  const MatchUpdate& u = message.update();
  auto it = matches_.find(u.match_id());
  if (it == matches_.end()) return true;  // an update for a match we have no snapshot of yet
  TrackedMatch& t = it->second;
  if (t.broken || u.seq() <= t.seq) return true;  // broken, or already applied (a resend)
  if (u.seq() != t.seq + 1) {
    t.broken = true;
    return true;
  }
  std::string next;
  if (!wire::apply_patch(t.view, u.patch(), next)) {
    t.broken = true;
    return true;
  }
  t.view = std::move(next);
  t.seq = u.seq();
  t.legal.assign(u.legal().begin(), u.legal().end());
  t.status = u.status();
  if (u.has_outcome()) {
    t.ended = true;
    t.outcome = u.outcome();
  }
  for (const auto& e : u.events()) t.events.push_back(e);
  ++t.updates;
  t.patch_bytes += u.patch().size();
  return true;
}

TrackedMatch* MatchTracker::find(uint64_t match_id) {
  auto it = matches_.find(match_id);
  return it == matches_.end() ? nullptr : &it->second;
}

}  // namespace duelhall::client
