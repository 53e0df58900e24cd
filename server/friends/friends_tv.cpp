// The TV: per ruleset, the featured live match (tv_choice.hpp), told to its watchers when it
// changes.
#include "accounts/account_service.hpp"
#include "friends/friends_room.hpp"
#include "friends/tv_choice.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

bool on_tv(const MatchInfo& info) {
  return info.status() == PLAYING && !info.unlisted() && info.spectators_allowed();
}

}  // namespace

double FriendsRoom::mean_rating(const MatchInfo& info) {
  auto cached = ratings_.find(info.match_id());
  if (cached != ratings_.end()) return cached->second;
  double sum = 0;
  int seats = 0;
  auto* accounts = host_.accounts();
  for (const auto& seat : info.seats()) {
    double rating = 1500.0;  // an account never rated in this ruleset starts here
    if (accounts) {
      if (auto view = accounts->find(seat.name()); view && !view->guest) {
        if (auto record = accounts->store().rating(view->id, info.ruleset())) {
          rating = record->rating;
        }
      }
    }
    sum += rating;
    ++seats;
  }
  const double mean = seats > 0 ? sum / seats : 0;
  ratings_[info.match_id()] = mean;
  return mean;
}

TvFeature FriendsRoom::feature(const std::string& ruleset, const MatchList& every, int64_t now) {
  std::vector<TvCandidate> candidates;
  std::map<uint64_t, const MatchInfo*> by_id;
  for (const auto& info : every.matches()) {
    if (info.ruleset() != ruleset || !on_tv(info)) continue;
    auto since = playing_since_.emplace(info.match_id(), now).first->second;
    const bool rated = info.settings().rated();
    candidates.push_back({info.match_id(), rated, rated ? mean_rating(info) : 0.0, since});
    by_id[info.match_id()] = &info;
  }
  uint64_t& current = tv_current_[ruleset];
  current = choose_feature(candidates, current);
  TvFeature out;
  out.set_ruleset(ruleset);
  out.set_match_id(current);
  if (current != 0) {
    const MatchInfo& info = *by_id[current];
    *out.mutable_match() = info;
    out.set_rated(info.settings().rated());
    if (out.rated()) out.set_rating(mean_rating(info));
  }
  return out;
}

void FriendsRoom::tick_tv(const MatchList& every, int64_t now, Outbox& out) {
  std::set<uint64_t> in_play;
  for (const auto& info : every.matches()) {
    if (info.status() == PLAYING) {
      in_play.insert(info.match_id());
      playing_since_.emplace(info.match_id(), now);
    }
  }
  std::erase_if(playing_since_, [&](const auto& e) { return !in_play.contains(e.first); });
  std::erase_if(ratings_, [&](const auto& e) { return !in_play.contains(e.first); });
  for (auto& [ruleset, watchers] : tv_watchers_) {
    std::erase_if(watchers, [](const auto& w) { return w.second.expired(); });
    const uint64_t before = tv_current_[ruleset];
    ServerMessage m;
    *m.mutable_tv() = feature(ruleset, every, now);
    if (m.tv().match_id() == before) continue;
    const Frame frame = frame_of(m);
    for (const auto& [id, weak] : watchers) {
      if (auto peer = weak.lock()) out.add(peer, frame);
    }
  }
  std::erase_if(tv_watchers_, [](const auto& e) { return e.second.empty(); });
}

Handled FriendsRoom::get_tv(Call& call, const GetTv& request) {
  if (!host_.registry().find(request.ruleset())) {
    return Handled::fail(UNKNOWN_RULESET, "no ruleset named '" + request.ruleset() + "'");
  }
  MatchList every;
  host_.list_every_match(every);
  std::lock_guard lock(mutex_);
  auto& watchers = tv_watchers_[request.ruleset()];
  if (request.subscribe()) {
    watchers[call.peer->peer_id()] = call.peer;
  } else {
    watchers.erase(call.peer->peer_id());
  }
  *call.reply.mutable_tv() = feature(request.ruleset(), every, now_ms_());
  return Handled::ok();
}

}  // namespace duelhall::server
