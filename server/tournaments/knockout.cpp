#include "tournaments/knockout.hpp"

#include <algorithm>
#include <sstream>

namespace duelhall::tournaments {

std::vector<int32_t> bracket_order(uint32_t slots) {
  std::vector<int32_t> order{1};
  for (uint32_t size = 2; size <= slots; size *= 2) {
    std::vector<int32_t> next;
    for (int32_t seed : order) {
      next.push_back(seed);
      next.push_back(static_cast<int32_t>(size) + 1 - seed);
    }
    order = std::move(next);
  }
  return order;
}

Refusal KnockoutTournament::add_player(PlayerId id, int32_t rating) {
  return ledger_.join(id, rating, finished(), started(), config_.max_players);
}

Refusal KnockoutTournament::withdraw(PlayerId id) {
  return leave(id, false);
}
Refusal KnockoutTournament::disqualify(PlayerId id) {
  return leave(id, true);
}

Refusal KnockoutTournament::leave(PlayerId id, bool disqualified) {
  const Refusal refusal = ledger_.leave(id, disqualified, finished());
  if (refusal == Refusal::kOk) settle();
  return refusal;
}

bool KnockoutTournament::seed_active(int32_t seed) const {
  return seed > 0 && ledger_.find(player_of_seed(seed))->active();
}

Refusal KnockoutTournament::start() {
  if (started()) return Refusal::kStarted;
  std::vector<Player> players;
  for (const Player& player : ledger_.players()) {
    if (player.active()) players.push_back(player);
  }
  if (players.size() < std::max<size_t>(2, config_.min_players)) return Refusal::kTooFewPlayers;
  std::sort(players.begin(), players.end(), [](const Player& a, const Player& b) {
    return a.rating != b.rating ? a.rating > b.rating : a.id < b.id;
  });
  for (const Player& player : players) seeds_.push_back(player.id);
  uint32_t slots = 1;
  while (slots < players.size()) {
    slots *= 2;
    ++rounds_;
  }
  std::vector<int32_t> order = bracket_order(slots);
  int32_t count = static_cast<int32_t>(players.size());
  for (uint32_t i = 0; i < slots; i += 2) {
    KnockoutMatch match;
    match.first = order[i] <= count ? order[i] : -1;
    match.second = order[i + 1] <= count ? order[i + 1] : -1;
    matches_.push_back(match);
  }
  for (uint32_t round = 2, size = slots / 4; round <= rounds_; ++round, size /= 2) {
    for (uint32_t i = 0; i < size; ++i) matches_.push_back(KnockoutMatch{round});
  }
  settle();
  return Refusal::kOk;
}

std::vector<MatchId> KnockoutTournament::pairings() const {
  std::vector<MatchId> ready;
  for (MatchId id = 0; id < matches_.size(); ++id) {
    const KnockoutMatch& match = matches_[id];
    if (match.first > 0 && match.second > 0 && match.winner == 0) ready.push_back(id);
  }
  return ready;
}

std::optional<std::pair<PlayerId, PlayerId>> KnockoutTournament::next_game_seats(MatchId id) const {
  if (id >= matches_.size()) return std::nullopt;
  const KnockoutMatch& match = matches_[id];
  if (match.first <= 0 || match.second <= 0 || match.winner != 0) return std::nullopt;
  const uint32_t played = match.first_wins + match.second_wins + match.draws;
  const int32_t higher = std::min(match.first, match.second);
  const int32_t lower = std::max(match.first, match.second);
  if (played % 2 == 0) return std::pair{player_of_seed(higher), player_of_seed(lower)};
  return std::pair{player_of_seed(lower), player_of_seed(higher)};
}

Refusal KnockoutTournament::record_game(MatchId id, Outcome outcome) {
  if (id >= matches_.size()) return Refusal::kUnknownMatch;
  KnockoutMatch& match = matches_[id];
  if (match.winner != 0) return Refusal::kResultTwice;
  if (match.first <= 0 || match.second <= 0) return Refusal::kUnknownMatch;
  if (outcome == Outcome::kFirstWins) ++match.first_wins;
  if (outcome == Outcome::kSecondWins) ++match.second_wins;
  if (outcome == Outcome::kDraw) ++match.draws;
  uint32_t needed = config_.best_of / 2 + 1;
  if (match.first_wins >= needed) decide(id, match.first, false);
  if (match.second_wins >= needed) decide(id, match.second, false);
  settle();
  return Refusal::kOk;
}

void KnockoutTournament::decide(MatchId id, int32_t winner, bool walkover) {
  matches_[id].winner = winner;
  matches_[id].walkover = walkover;
  if (id + 1 == matches_.size()) return;  // the final
  // Matches of round r start where round r-1's end; a match's winner feeds slot id/2 of the next.
  MatchId round_start = 0, size = static_cast<MatchId>((matches_.size() + 1) / 2);
  while (id >= round_start + size) {
    round_start += size;
    size /= 2;
  }
  MatchId next = round_start + size + (id - round_start) / 2;
  ((id - round_start) % 2 == 0 ? matches_[next].first : matches_[next].second) = winner;
}

void KnockoutTournament::settle() {
  for (bool changed = true; changed;) {
    changed = false;
    for (MatchId id = 0; id < matches_.size(); ++id) {
      const KnockoutMatch& match = matches_[id];
      if (match.winner != 0 || match.first == 0 || match.second == 0) continue;
      bool first_in = seed_active(match.first), second_in = seed_active(match.second);
      if (first_in && second_in) continue;  // to be played
      int32_t winner;
      if (first_in) {
        winner = match.first;
      } else if (second_in) {
        winner = match.second;
      } else if (match.first > 0 && match.second > 0) {
        winner = std::min(match.first, match.second);
      } else {
        winner = match.first > 0 ? match.first : match.second;
      }
      decide(id, winner, true);
      changed = true;
    }
  }
}

std::optional<PlayerId> KnockoutTournament::champion() const {
  if (!finished()) return std::nullopt;
  return player_of_seed(matches_.back().winner);
}

std::vector<KnockoutStanding> KnockoutTournament::standings() const {
  std::vector<KnockoutStanding> table(seeds_.size());
  std::vector<uint32_t> depth(seeds_.size(), 0);  // round reached, +1 for winning its match
  for (size_t index = 0; index < seeds_.size(); ++index) {
    table[index].id = seeds_[index];
    table[index].seed = static_cast<int32_t>(index + 1);
  }
  for (const KnockoutMatch& match : matches_) {
    for (int32_t seed : {match.first, match.second}) {
      if (seed <= 0) continue;
      KnockoutStanding& row = table[static_cast<size_t>(seed - 1)];
      row.round_reached = std::max(row.round_reached, match.round);
      uint32_t& reached = depth[static_cast<size_t>(seed - 1)];
      reached = std::max(reached, match.round);
      if (match.winner > 0 && match.winner != seed) {
        row.eliminated_by = player_of_seed(match.winner);
        row.by_walkover = match.walkover;
        row.place = (1u << (rounds_ - match.round)) + 1;
      }
    }
    if (match.winner > 0) {
      uint32_t& reached = depth[static_cast<size_t>(match.winner - 1)];
      reached = std::max(reached, match.round + 1);
    }
  }
  if (finished()) table[static_cast<size_t>(matches_.back().winner - 1)].place = 1;
  std::sort(table.begin(), table.end(), [&](const KnockoutStanding& a, const KnockoutStanding& b) {
    uint32_t a_depth = depth[static_cast<size_t>(a.seed - 1)];
    uint32_t b_depth = depth[static_cast<size_t>(b.seed - 1)];
    if (a_depth != b_depth) return a_depth > b_depth;
    if (a.eliminated_by.has_value() != b.eliminated_by.has_value()) return !a.eliminated_by;
    return a.seed < b.seed;
  });
  return table;
}

std::string KnockoutTournament::serialize() const {
  std::ostringstream out;
  out << "duelhall-tournament knockout 2\nmax_players " << config_.max_players << "\nmin_players "
      << config_.min_players << "\nbest_of " << config_.best_of << "\nplayers "
      << ledger_.players().size() << "\nseeds " << seeds_.size() << "\nmatches " << matches_.size()
      << '\n';
  ledger_.write(out);
  for (PlayerId seed : seeds_) out << "seed " << seed << '\n';
  for (const KnockoutMatch& m : matches_) {
    out << "match " << m.round << ' ' << m.first << ' ' << m.second << ' ' << m.first_wins << ' '
        << m.second_wins << ' ' << m.draws << ' ' << m.winner << ' ' << (m.walkover ? 1 : 0)
        << '\n';
  }
  out << "end\n";
  return out.str();
}

Refusal KnockoutTournament::restore(const std::string& text, KnockoutTournament& out) {
  std::istringstream in(text);
  std::string magic, format, word;
  uint64_t version = 0, max_players = 0, min_players = 0, best_of = 0, players = 0, seeds = 0,
           matches = 0;
  // Version 1 had no minimum: it reads as 0.
  if (!(in >> magic >> format >> version) || magic != "duelhall-tournament" ||
      format != "knockout" || (version != 1 && version != 2) ||
      !read_field(in, "max_players", max_players) ||
      (version >= 2 && !read_field(in, "min_players", min_players)) ||
      !read_field(in, "best_of", best_of) || !read_field(in, "players", players) ||
      !read_field(in, "seeds", seeds) || !read_field(in, "matches", matches)) {
    return Refusal::kBadEncoding;
  }
  if ((best_of != 1 && best_of != 3) || players > 1000000 || seeds > players ||
      min_players > 1000000) {
    return Refusal::kBadEncoding;
  }
  uint64_t slots = 1;
  uint32_t rounds = 0;
  while (slots < seeds) {
    slots *= 2;
    ++rounds;
  }
  if (seeds == 1 || (seeds == 0 ? matches != 0 : matches != slots - 1))
    return Refusal::kBadEncoding;
  KnockoutTournament restored(KnockoutConfig{static_cast<uint32_t>(max_players),
                                             static_cast<uint32_t>(best_of),
                                             static_cast<uint32_t>(min_players)});
  if (!restored.ledger_.read(in, players, 0)) return Refusal::kBadEncoding;
  for (uint64_t i = 0; i < seeds; ++i) {
    PlayerId id = 0;
    if (!(in >> word >> id) || word != "seed" || !restored.ledger_.find(id)) {
      return Refusal::kBadEncoding;
    }
    restored.seeds_.push_back(id);
  }
  int32_t top = static_cast<int32_t>(seeds);
  for (uint64_t i = 0; i < matches; ++i) {
    KnockoutMatch m;
    int walkover = 0;
    if (!(in >> word >> m.round >> m.first >> m.second >> m.first_wins >> m.second_wins >>
          m.draws >> m.winner >> walkover) ||
        word != "match") {
      return Refusal::kBadEncoding;
    }
    for (int32_t seed : {m.first, m.second, m.winner}) {
      if (seed < -1 || seed > top) return Refusal::kBadEncoding;
    }
    m.walkover = walkover != 0;
    restored.matches_.push_back(m);
  }
  restored.rounds_ = rounds;
  if (!(in >> word) || word != "end") return Refusal::kBadEncoding;
  out = std::move(restored);
  return Refusal::kOk;
}

}  // namespace duelhall::tournaments
