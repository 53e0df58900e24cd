// What the room does once its lock is released: makes the matches of the games whose players
// are here (through the lobby's create and join path, as quick pairing does), aborts the matches
// of games decided without them, and pushes the detail to those who watch.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "match/match.hpp"
#include "net/messages.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {
namespace {

ServerMessage pushed() {
  ServerMessage m;
  m.set_result(OK);
  return m;
}

}  // namespace

void TournamentRoom::carry_out(After after) {
  {
    std::lock_guard lock(mutex_);
    flush_saves();
  }
  for (ToMake& job : after.make) make_match(job);
  for (uint64_t match_id : after.abort) {
    if (auto match = host_.find_match(match_id)) {
      match->abort("decided in the tournament without this match",
                    [](ResultCode, const std::string&) {});
    }
  }
  push_changes(after.changed);
}

void TournamentRoom::make_match(ToMake& job) {
  CreateMatch request;
  *request.mutable_settings() = job.settings;
  request.set_join(true);
  request.set_seat_option(job.setups.front());
  request.set_bot_seats(job.bot_seats);
  TournamentMatch created = host_.create_for_tournament(job.players.front(), request);
  After after;
  {
    std::lock_guard lock(mutex_);
    making_.erase({job.tournament, job.key});
    auto it = open_.find(job.tournament);
    GameNote* game = it == open_.end() ? nullptr : it->second.note(job.key);
    if (created.code != OK) {
      spdlog::warn("tournament {}: the match of game {} could not be made: {}", job.tournament,
                   job.key, created.reason);
      if (game && !game->done()) {
        record(it->second, *game, std::vector<uint8_t>(game->seats.size(), 1), true, after);
      }
    } else if (!game || game->done()) {
      after.abort.push_back(created.info.match_id());  // decided while it was being made
    } else {
      game->match_id = created.info.match_id();
      by_match_[game->match_id] = {job.tournament, job.key};
      save(it->second);
      after.changed.push_back(job.tournament);
    }
  }
  if (created.code == OK && after.abort.empty()) {
    // In a cluster the match opens once its lease is taken, and only then are its seats filled.
    // (The lease is answered on a Redis link's strand: the seats are filled on the I/O loop.)
    host_.when_open(created.match, [self = shared_from_this(), job, created] {
      if (!self->host_.cluster()) return self->seat_players(job, created);
      boost::asio::post(self->host_.io(),
                        [self, job, created] { self->seat_players(job, created); });
    });
  }
  carry_out(std::move(after));
}

void TournamentRoom::seat_players(const ToMake& job, const TournamentMatch& created) {
  auto ready = [&job, &created](size_t seat) {
    ServerMessage m = pushed();
    TournamentGameReady* r = m.mutable_tournament_game();
    r->set_tournament_id(job.tournament);
    r->set_match_id(created.info.match_id());
    r->set_seat(static_cast<uint32_t>(seat));
    r->set_round(job.round);
    r->set_tournament_name(job.name);
    for (const std::string& name : job.names) r->add_seats(name);
    return m;
  };
  job.peers.front()->send(frame_of(ready(0)));
  for (size_t seat = 1; seat < job.players.size(); ++seat) {
    JoinMatch join;
    join.set_match_id(created.info.match_id());
    join.set_seat(static_cast<int32_t>(seat));
    join.set_seat_option(job.setups[seat]);
    created.match->join(job.peers[seat], job.players[seat], join, 0);
    // Told once seated: seats_now runs on the match's strand after the join.
    created.match->seats_now([peer = job.peers[seat], player = job.players[seat],
                              message = ready(seat), seat](const Match::SeatsNow& now) {
      if (seat < now.players.size() && now.players[seat] == player) peer->send(frame_of(message));
    });
  }
}

void TournamentRoom::push_changes(const std::vector<uint64_t>& changed) {
  if (changed.empty()) return;
  std::vector<std::pair<std::shared_ptr<Peer>, Frame>> out;
  {
    std::lock_guard lock(mutex_);
    for (auto it = watchers_.begin(); it != watchers_.end();) {
      auto peer = it->second.peer.lock();
      if (!peer) {
        it = watchers_.erase(it);
        continue;
      }
      const Watcher& w = it->second;
      ++it;
      if (std::find(changed.begin(), changed.end(), w.tournament) == changed.end()) continue;
      Tournament* t = find(w.tournament);
      if (!t) continue;
      ServerMessage m = pushed();
      fill_detail(*t, w.account, *m.mutable_tournament());
      out.emplace_back(std::move(peer), frame_of(m));
    }
  }
  for (auto& [peer, frame] : out) peer->send(std::move(frame));
}

}  // namespace duelhall::server
