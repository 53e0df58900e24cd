#include "tournaments/arena.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace duelhall::tournaments {
namespace {

constexpr int64_t kRatingPerPoint = 100;

}  // namespace

bool ArenaTournament::finished(uint64_t now_ms) const {
  return started_ && now_ms >= start_ms_ + config_.duration_ms;
}

Refusal ArenaTournament::add_player(PlayerId id, int32_t rating, uint64_t now_ms) {
  const Refusal refusal = ledger_.join(id, rating, finished(now_ms), false, config_.max_players);
  if (refusal == Refusal::kOk) tallies_[id].standing = ArenaStanding{id, rating};
  return refusal;
}

Refusal ArenaTournament::withdraw(PlayerId id, uint64_t now_ms) {
  return leave(id, now_ms, false);
}
Refusal ArenaTournament::disqualify(PlayerId id, uint64_t now_ms) {
  return leave(id, now_ms, true);
}

Refusal ArenaTournament::leave(PlayerId id, uint64_t now_ms, bool disqualified) {
  return ledger_.leave(id, disqualified, finished(now_ms));
}

Refusal ArenaTournament::start(uint64_t now_ms) {
  if (started_) return Refusal::kStarted;
  size_t active = 0;
  for (const Player& player : ledger_.players()) active += player.active() ? 1 : 0;
  if (active < config_.min_players) return Refusal::kTooFewPlayers;
  started_ = true;
  start_ms_ = now_ms;
  return Refusal::kOk;
}

std::vector<PlayerId> ArenaTournament::waiting() const {
  std::vector<PlayerId> pool;
  for (const Player& player : ledger_.players()) {
    if (player.active() && !in_game_.count(player.id)) pool.push_back(player.id);
  }
  return pool;
}

Refusal ArenaTournament::pair_waiting(uint64_t now_ms, std::vector<GameId>* games) {
  retry_at_ms_.reset();
  if (!started_) return Refusal::kNotStarted;
  if (finished(now_ms)) return Refusal::kFinished;
  std::vector<PlayerId> pool = waiting();
  std::unordered_map<PlayerId, uint64_t> since;
  for (PlayerId id : pool) {
    auto known = waiting_since_ms_.find(id);
    since[id] = known == waiting_since_ms_.end() ? now_ms : known->second;
  }
  size_t active = 0;
  for (const Player& player : ledger_.players()) active += player.active() ? 1 : 0;
  auto waited_enough = [&](PlayerId id) {
    return now_ms >= since.at(id) + config_.rematch_wait_ms;
  };
  auto tally = [&](PlayerId id) -> const Tally& { return tallies_.at(id); };
  std::sort(pool.begin(), pool.end(), [&](PlayerId a, PlayerId b) {
    const ArenaStanding& x = tally(a).standing;
    const ArenaStanding& y = tally(b).standing;
    if (x.points != y.points) return x.points > y.points;
    if (x.rating != y.rating) return x.rating > y.rating;
    return a < b;
  });
  std::vector<bool> taken(pool.size(), false);
  for (size_t i = 0; i < pool.size(); ++i) {
    if (taken[i]) continue;
    const Tally& me = tally(pool[i]);
    size_t best = pool.size();
    int64_t best_distance = 0;
    bool best_is_last = false;
    for (size_t j = i + 1; j < pool.size(); ++j) {
      if (taken[j]) continue;
      const Tally& them = tally(pool[j]);
      bool is_last = me.has_last_opponent && me.last_opponent == pool[j];
      int64_t distance = kRatingPerPoint * std::abs(me.standing.points - them.standing.points) +
                         std::abs(me.standing.rating - them.standing.rating);
      // Anyone but the last opponent beats the last opponent; then the nearest.
      if (best == pool.size() || (best_is_last && !is_last) ||
          (is_last == best_is_last && distance < best_distance)) {
        best = j;
        best_distance = distance;
        best_is_last = is_last;
      }
    }
    if (best == pool.size()) continue;  // alone: waits for the next to finish
    if (best_is_last && active > 2 && !waited_enough(pool[i]) && !waited_enough(pool[best])) {
      // Both wait for someone else to finish, at most until the rematch wait ends.
      uint64_t until = std::min(since.at(pool[i]), since.at(pool[best])) + config_.rematch_wait_ms;
      retry_at_ms_ = std::min(retry_at_ms_.value_or(until), until);
      continue;
    }
    taken[i] = taken[best] = true;
    since.erase(pool[i]);
    since.erase(pool[best]);
    PlayerId a = pool[i], b = pool[best];
    if (tally(b).first_seats < tally(a).first_seats) std::swap(a, b);
    GameId id = ledger_.open_game(0, {a, b});
    in_game_[a] = in_game_[b] = id;
    if (games) games->push_back(id);
  }
  waiting_since_ms_ = std::move(since);
  return Refusal::kOk;
}

Refusal ArenaTournament::record_result(GameId id, Outcome outcome) {
  const Game* game = ledger_.game(id);
  if (!game) return Refusal::kUnknownMatch;
  Refusal refusal = ledger_.report(id, places_of(outcome));
  if (refusal != Refusal::kOk) return refusal;
  report_order_.push_back(id);
  count(tallies_, ledger_, *game);
  for (PlayerId seat : game->seats) in_game_.erase(seat);
  return Refusal::kOk;
}

void ArenaTournament::count(std::unordered_map<PlayerId, Tally>& tallies, const Ledger& ledger,
                            const Game& game) {
  for (size_t seat = 0; seat < 2; ++seat) {
    Tally& tally = tallies.at(game.seats[seat]);
    PlayerId opponent = game.seats[1 - seat];
    ArenaStanding& standing = tally.standing;
    int32_t result = half_points_against(game, seat, 1 - seat);
    ++standing.games;
    if (result == 2) {
      ++standing.wins;
      standing.points += standing.streak >= 2 ? 4 : 2;
      ++standing.streak;
    } else {
      (result == 1 ? standing.draws : standing.losses) += 1;
      standing.points += result;
      standing.streak = 0;
    }
    tally.opponent_ratings += ledger.find(opponent)->rating;
    tally.last_opponent = opponent;
    tally.has_last_opponent = true;
    if (seat == 0) ++tally.first_seats;
  }
}

std::unordered_map<PlayerId, ArenaTournament::Tally> ArenaTournament::fresh_tallies() const {
  std::unordered_map<PlayerId, Tally> tallies;
  for (const Player& player : ledger_.players()) {
    tallies[player.id].standing = ArenaStanding{player.id, player.rating};
  }
  for (GameId id : report_order_) count(tallies, ledger_, *ledger_.game(id));
  return tallies;
}

std::vector<ArenaStanding> ArenaTournament::ranked(
    const std::unordered_map<PlayerId, Tally>& tallies) const {
  std::vector<ArenaStanding> table;
  for (const Player& player : ledger_.players()) {
    const Tally& tally = tallies.at(player.id);
    ArenaStanding standing = tally.standing;
    if (standing.games > 0) {
      int64_t games = standing.games;
      int64_t margin = static_cast<int64_t>(standing.wins) - standing.losses;
      standing.performance =
          static_cast<int32_t>(tally.opponent_ratings / games + 500 * margin / games);
    }
    table.push_back(standing);
  }
  std::sort(table.begin(), table.end(), [](const ArenaStanding& a, const ArenaStanding& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.performance != b.performance) return a.performance > b.performance;
    if (a.rating != b.rating) return a.rating > b.rating;
    return a.id < b.id;
  });
  return table;
}

std::vector<ArenaStanding> ArenaTournament::standings() const {
  return ranked(tallies_);
}
std::vector<ArenaStanding> ArenaTournament::recount() const {
  return ranked(fresh_tallies());
}

std::string ArenaTournament::serialize() const {
  std::ostringstream out;
  out << "duelhall-tournament arena 2\nduration_ms " << config_.duration_ms << "\nmax_players "
      << config_.max_players << "\nrematch_wait_ms " << config_.rematch_wait_ms << "\nmin_players "
      << config_.min_players << "\nstarted " << (started_ ? 1 : 0) << "\nstart_ms " << start_ms_
      << "\nplayers " << ledger_.players().size() << "\ngames " << ledger_.games().size()
      << "\nreports " << report_order_.size() << '\n';
  ledger_.write(out);
  for (GameId id : report_order_) out << "report " << id << '\n';
  out << "end\n";
  return out.str();
}

Refusal ArenaTournament::restore(const std::string& text, ArenaTournament& out) {
  std::istringstream in(text);
  std::string magic, format, word;
  uint64_t version = 0, duration = 0, max_players = 0, started = 0, start_ms = 0, players = 0,
           games = 0, reports = 0, rematch_wait = ArenaConfig{}.rematch_wait_ms, min_players = 0;
  // Version 1 had no rematch wait and no minimum: they read as the defaults.
  if (!(in >> magic >> format >> version) || magic != "duelhall-tournament" || format != "arena" ||
      (version != 1 && version != 2) || !read_field(in, "duration_ms", duration) ||
      !read_field(in, "max_players", max_players) ||
      (version >= 2 && (!read_field(in, "rematch_wait_ms", rematch_wait) ||
                        !read_field(in, "min_players", min_players))) ||
      !read_field(in, "started", started) || !read_field(in, "start_ms", start_ms) ||
      !read_field(in, "players", players) || !read_field(in, "games", games) ||
      !read_field(in, "reports", reports)) {
    return Refusal::kBadEncoding;
  }
  if (players > 1000000 || games > 100000000 || reports > games || min_players > 1000000) {
    return Refusal::kBadEncoding;
  }
  ArenaTournament restored(ArenaConfig{duration, static_cast<uint32_t>(max_players), rematch_wait,
                                       static_cast<uint32_t>(min_players)});
  restored.started_ = started != 0;
  restored.start_ms_ = start_ms;
  if (!restored.ledger_.read(in, players, games)) return Refusal::kBadEncoding;
  std::vector<bool> seen(games, false);
  for (uint64_t i = 0; i < reports; ++i) {
    GameId id = 0;
    if (!(in >> word >> id) || word != "report" || id >= games || seen[id] ||
        !restored.ledger_.game(id)->reported()) {
      return Refusal::kBadEncoding;
    }
    seen[id] = true;
    restored.report_order_.push_back(id);
  }
  if (!(in >> word) || word != "end") return Refusal::kBadEncoding;
  for (const Game& game : restored.ledger_.games()) {
    if (game.seats.size() != 2 || game.reported() != seen[game.id]) return Refusal::kBadEncoding;
    if (!game.reported()) {
      for (PlayerId seat : game.seats) {
        if (!restored.in_game_.emplace(seat, game.id).second) return Refusal::kBadEncoding;
      }
    }
  }
  restored.tallies_ = restored.fresh_tallies();
  out = std::move(restored);
  return Refusal::kOk;
}

}  // namespace duelhall::tournaments
