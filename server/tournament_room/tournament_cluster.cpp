// Tournaments across a cluster (docs/tournaments.md, "In a cluster"). One node directs each open
// tournament, the one holding its lease in Redis (tournament-lease:<id>, renewed every tick and
// lapsing after kLeaseMs): it alone keeps the tournament in memory, saves it, makes its games'
// matches and takes their results. Every node reads the store's open tournaments every few
// seconds and asks for the lease of each, so a tournament whose node died is taken up by another
// within the lease and resumed from its last save. Commands about a tournament directed by
// another node are redirected there (a tournament's players play through its director's node);
// the end of a match this node hosts for another node's tournament (a match adopted after its
// node died) is told to every node on the channel "tournaments".
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <cstdio>

#include "cluster/cluster_node.hpp"
#include "storage/tournament_store.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {
namespace {

constexpr int64_t kLeaseMs = 10'000;
constexpr int64_t kStoreReadMs = 5'000;

// ARGV: prefix, node, ttl_ms, then tournament ids. Takes or renews each id's lease when it is
// free or the node's own; answers id, holder, ... for every id.
const char* const kTournamentLeases = R"lua(
local p, node, ttl = ARGV[1], ARGV[2], ARGV[3]
local out = {}
for i = 4, #ARGV do
  local key = p..'tournament-lease:'..ARGV[i]
  local holder = redis.call('GET', key)
  if not holder or holder == node then
    redis.call('SET', key, node, 'PX', ttl)
    holder = node
  end
  table.insert(out, ARGV[i])
  table.insert(out, holder)
end
return out
)lua";

}  // namespace

void TournamentRoom::start_cluster() {
  cluster::ClusterNode& cl = *host_.cluster();
  cl.follow(
      "tournaments",
      [weak = weak_from_this()](std::string text) {
        auto room = weak.lock();
        if (!room) return;
        uint64_t match = 0, winners = 0;
        int aborted = 0;
        if (std::sscanf(text.c_str(), "%lu %lu %d", &match, &winners, &aborted) != 3) return;
        boost::asio::post(room->host_.io(), [room, match, winners, aborted] {
          {
            std::lock_guard lock(room->mutex_);
            if (!room->by_match_.contains(match)) {
              room->remember_end(match, winners, aborted != 0);
              return;
            }
          }
          room->apply_match_end(match, winners, aborted != 0);
        });
      },
      [] {});
}

void TournamentRoom::tell_match_end(uint64_t match_id, uint64_t winners, bool aborted) {
  host_.cluster()->broadcast("tournaments", std::to_string(match_id) + " " +
                                                std::to_string(winners) + " " +
                                                std::to_string(aborted ? 1 : 0));
}

void TournamentRoom::read_open_from_store(int64_t now) {
  storage::TournamentStore* store = host_.tournament_store();
  if (!store || now - last_store_read_ms_ < kStoreReadMs) return;
  last_store_read_ms_ = now;
  try {
    std::map<uint64_t, Tournament> read;
    for (const storage::TournamentRecord& record : store->open_tournaments()) {
      Tournament t;
      if (decode(record.state, static_cast<uint64_t>(record.id), t)) read.emplace(t.id, std::move(t));
    }
    std::lock_guard lock(mutex_);
    elsewhere_ = std::move(read);
  } catch (const std::exception& e) {
    spdlog::warn("open tournaments could not be read from the store: {}", e.what());
  }
}

void TournamentRoom::renew_leases(int64_t now) {
  read_open_from_store(now);
  cluster::ClusterNode& cl = *host_.cluster();
  std::vector<std::string> args = {cl.options().node, std::to_string(kLeaseMs)};
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, t] : open_) args.push_back(std::to_string(id));
    for (const auto& [id, t] : elsewhere_) {
      if (!open_.contains(id)) args.push_back(std::to_string(id));
    }
  }
  if (args.size() == 2) return;
  cl.directory().eval(
      kTournamentLeases, std::move(args),
      [weak = weak_from_this()](std::optional<cluster::RedisReply> reply) {
        auto room = weak.lock();
        if (!room || !reply) return;  // unanswered: the leases lapse, and with them the right to direct
        std::map<uint64_t, std::string> holders;
        for (size_t i = 0; i + 1 < reply->elements.size(); i += 2) {
          holders[static_cast<uint64_t>(reply->elements[i].as_integer())] =
              reply->elements[i + 1].text;
        }
        boost::asio::post(room->host_.io(),
                          [room, holders = std::move(holders)] { room->leases_read(holders); });
      });
}

void TournamentRoom::remember_end(uint64_t match_id, uint64_t winners, bool aborted) {
  constexpr size_t kRemembered = 1024;
  if (unclaimed_ends_.size() >= kRemembered) unclaimed_ends_.erase(unclaimed_ends_.begin());
  unclaimed_ends_[match_id] = MatchEnd{winners, aborted};
}

void TournamentRoom::leases_read(const std::map<uint64_t, std::string>& holders) {
  std::vector<std::pair<uint64_t, MatchEnd>> ended;  // games of tournaments taken up
  take_up(holders, ended);
  for (const auto& [match, end] : ended) apply_match_end(match, end.winners, end.aborted);
}

void TournamentRoom::take_up(const std::map<uint64_t, std::string>& holders,
                             std::vector<std::pair<uint64_t, MatchEnd>>& ended) {
  const std::string& me = host_.cluster()->options().node;
  storage::TournamentStore* store = host_.tournament_store();
  std::lock_guard lock(mutex_);
  directors_ = holders;  // every open tournament was asked for: the finished ones drop out
  for (auto it = open_.begin(); it != open_.end();) {
    const auto held = holders.find(it->first);
    if (held == holders.end() || held->second == me) {
      ++it;
      continue;
    }
    // Another node holds it (this node's renewals failed past the lease): it directs it now.
    spdlog::warn("tournament {}: now directed by {}", it->first, held->second);
    for (const GameNote& game : it->second.games) by_match_.erase(game.match_id);
    dirty_.erase(it->first);
    it = open_.erase(it);
  }
  for (const auto& [id, holder] : holders) {
    if (holder != me || open_.contains(id) || !store) continue;
    // Taken up: resumed from its last save, as at a start.
    std::optional<storage::TournamentRecord> record;
    try {
      record = store->find_tournament(static_cast<int64_t>(id));
    } catch (const std::exception& e) {
      spdlog::warn("tournament {} could not be read: {}", id, e.what());
    }
    Tournament t;
    if (!record || record->status >= TOURNAMENT_FINISHED || !decode(record->state, id, t)) continue;
    for (const GameNote& game : t.games) {
      if (game.match_id == 0 || game.done()) continue;
      by_match_[game.match_id] = {t.id, game.key};
      if (auto end = unclaimed_ends_.find(game.match_id); end != unclaimed_ends_.end()) {
        ended.emplace_back(end->first, end->second);
        unclaimed_ends_.erase(end);
      }
    }
    spdlog::info("tournament {} ({}) taken up by this node", id, t.settings.name());
    open_.emplace(id, std::move(t));
  }
}

std::optional<Handled> TournamentRoom::directed_elsewhere(Call& call, uint64_t id) {
  cluster::ClusterNode* cl = host_.cluster();
  if (!cl || open_.contains(id) || !elsewhere_.contains(id)) return std::nullopt;
  const auto director = directors_.find(id);
  const auto node = director == directors_.end() ? std::nullopt : cl->node(director->second);
  if (!node || node->name == cl->options().node || !cl->seen_recently(node->name)) {
    // Its director died and no node has taken it up yet: within a lease.
    return Handled::retry(CLUSTER_UNAVAILABLE, "the tournament is changing node: ask again", 1000);
  }
  Redirect* r = call.reply.mutable_redirect();
  r->set_node(node->name);
  r->set_address(node->address);
  return Handled::fail(REDIRECT, "tournament " + std::to_string(id) + " is directed by " + node->name);
}

}  // namespace duelhall::server
