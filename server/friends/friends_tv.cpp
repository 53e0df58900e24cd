// The TV: per ruleset, the featured live match (tv_choice.hpp), told to its watchers when it
// changes.
#include <cmath>

#include "accounts/account_json.hpp"
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
  host_.list_cluster_matches(every);
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

std::optional<FriendsRoom::JsonAnswer> FriendsRoom::answer_tv_http(std::string_view target) {
  constexpr std::string_view kPrefix = "/api/tv/";
  target = target.substr(0, target.find('?'));
  if (!target.starts_with(kPrefix)) return std::nullopt;
  const std::string ruleset(target.substr(kPrefix.size()));
  if (ruleset.size() > 64 || !host_.registry().find(ruleset)) {
    return JsonAnswer{404, "{\"error\":\"unknown_ruleset\"}"};
  }
  MatchList every;
  host_.list_cluster_matches(every);
  TvFeature tv;
  {
    std::lock_guard lock(mutex_);
    tv = feature(ruleset, every, now_ms_());
  }
  std::string body = "{\"ruleset\":" + accounts::json_string(ruleset) +
                     ",\"match_id\":" + std::to_string(tv.match_id());
  if (tv.match_id() != 0) {
    body += ",\"rated\":" + std::string(tv.rated() ? "true" : "false");
    if (tv.rated()) body += ",\"rating\":" + std::to_string(std::lround(tv.rating()));
    body += ",\"spectators\":" + std::to_string(tv.match().spectators()) +
            ",\"actions\":" + std::to_string(tv.match().actions()) + ",\"players\":[";
    for (int i = 0; i < tv.match().seats_size(); ++i) {
      if (i > 0) body += ",";
      body += accounts::json_string(tv.match().seats(i).name());
    }
    body += "]";
  }
  return JsonAnswer{200, body + "}"};
}

}  // namespace duelhall::server
