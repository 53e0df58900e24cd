#include "tournaments/format.hpp"

#include <algorithm>

namespace duelhall::tournaments {

const char* format_name(FormatKind kind) {
  switch (kind) {
    case FormatKind::kSwiss: return "swiss";
    case FormatKind::kArena: return "arena";
    case FormatKind::kKnockout: return "knockout";
  }
  return "unknown";
}

std::optional<Outcome> outcome_of(const std::vector<uint8_t>& places) {
  if (places.size() != 2 || !valid_places(places, 2)) return std::nullopt;
  if (places[0] == places[1]) return Outcome::kDraw;
  return places[0] < places[1] ? Outcome::kFirstWins : Outcome::kSecondWins;
}

namespace {

std::vector<PendingGame> unreported(const Ledger& ledger) {
  std::vector<PendingGame> games;
  for (const Game& game : ledger.games()) {
    if (!game.reported()) games.push_back(PendingGame{game.id, game.round, game.seats});
  }
  return games;
}

class SwissFormat final : public Format {
 public:
  explicit SwissFormat(SwissTournament swiss) : swiss_(std::move(swiss)) {}
  FormatKind kind() const override { return FormatKind::kSwiss; }
  Refusal join(PlayerId id, int32_t rating, uint64_t) override {
    return swiss_.add_player(id, rating);
  }
  Refusal leave(PlayerId id, bool disqualified, uint64_t) override {
    return disqualified ? swiss_.disqualify(id) : swiss_.withdraw(id);
  }
  Refusal start(uint64_t) override { return swiss_.next_round(); }
  bool started() const override { return swiss_.started(); }
  std::vector<PendingGame> advance(uint64_t) override {
    // A round too few players are left for ends the tournament where it stands.
    if (started() && !swiss_.finished() && pending().empty() &&
        swiss_.next_round() == Refusal::kTooFewPlayers) {
      stopped_ = true;
    }
    return pending();
  }
  std::vector<PendingGame> pending() const override { return unreported(swiss_.ledger()); }
  Refusal record(uint64_t key, const std::vector<uint8_t>& places) override {
    const auto game = static_cast<GameId>(key);
    if (swiss_.config().table_seats > 2) return swiss_.record_places(game, places);
    const std::optional<Outcome> outcome = outcome_of(places);
    if (!outcome) return Refusal::kBadResult;
    return swiss_.record_result(game, *outcome);
  }
  bool over(uint64_t) const override {
    return swiss_.finished() || (stopped_ && pending().empty());
  }
  uint32_t round() const override { return swiss_.round(); }
  std::vector<StandingRow> standings() const override {
    std::vector<StandingRow> rows;
    for (const Standing& s : swiss_.standings()) {
      rows.push_back(StandingRow{static_cast<uint32_t>(rows.size() + 1), s.id, s.rating, s.points,
                                 s.buchholz_cut1, s.sonneborn_berger, s.games, s.wins + s.byes,
                                 s.draws, s.losses, s.withdrawn || s.disqualified});
    }
    return rows;
  }
  const Ledger& ledger() const override { return swiss_.ledger(); }
  std::string serialize() const override { return swiss_.serialize(); }

 private:
  SwissTournament swiss_;
  bool stopped_ = false;
};

class ArenaFormat final : public Format {
 public:
  explicit ArenaFormat(ArenaTournament arena) : arena_(std::move(arena)) {}
  FormatKind kind() const override { return FormatKind::kArena; }
  Refusal join(PlayerId id, int32_t rating, uint64_t now_ms) override {
    return arena_.add_player(id, rating, now_ms);
  }
  Refusal leave(PlayerId id, bool disqualified, uint64_t now_ms) override {
    return disqualified ? arena_.disqualify(id, now_ms) : arena_.withdraw(id, now_ms);
  }
  Refusal start(uint64_t now_ms) override { return arena_.start(now_ms); }
  bool started() const override { return arena_.started(); }
  std::vector<PendingGame> advance(uint64_t now_ms) override {
    if (started() && !arena_.finished(now_ms)) (void)arena_.pair_waiting(now_ms);
    return pending();
  }
  std::vector<PendingGame> pending() const override { return unreported(arena_.ledger()); }
  Refusal record(uint64_t key, const std::vector<uint8_t>& places) override {
    const std::optional<Outcome> outcome = outcome_of(places);
    if (!outcome) return Refusal::kBadResult;
    return arena_.record_result(static_cast<GameId>(key), *outcome);
  }
  bool over(uint64_t now_ms) const override {
    return arena_.finished(now_ms) && pending().empty();
  }
  uint32_t round() const override { return 0; }
  uint64_t wake_at_ms() const override {
    if (!started()) return 0;
    const uint64_t end = arena_.end_ms();
    const std::optional<uint64_t> retry = arena_.retry_at_ms();
    return retry ? std::min(*retry, end) : end;
  }
  std::vector<StandingRow> standings() const override {
    std::vector<StandingRow> rows;
    for (const ArenaStanding& s : arena_.standings()) {
      const Player* player = arena_.ledger().find(s.id);
      rows.push_back(StandingRow{static_cast<uint32_t>(rows.size() + 1), s.id, s.rating, s.points,
                                 s.performance, static_cast<int32_t>(s.streak), s.games, s.wins,
                                 s.draws, s.losses, player && !player->active()});
    }
    return rows;
  }
  const Ledger& ledger() const override { return arena_.ledger(); }
  std::string serialize() const override { return arena_.serialize(); }

 private:
  ArenaTournament arena_;
};

// A knockout game's key: its match in the high bits, the games that match has played below.
constexpr uint64_t kGamesBits = 16;

class KnockoutFormat final : public Format {
 public:
  explicit KnockoutFormat(KnockoutTournament knockout) : knockout_(std::move(knockout)) {}
  FormatKind kind() const override { return FormatKind::kKnockout; }
  Refusal join(PlayerId id, int32_t rating, uint64_t) override {
    return knockout_.add_player(id, rating);
  }
  Refusal leave(PlayerId id, bool disqualified, uint64_t) override {
    return disqualified ? knockout_.disqualify(id) : knockout_.withdraw(id);
  }
  Refusal start(uint64_t) override { return knockout_.start(); }
  bool started() const override { return knockout_.started(); }
  std::vector<PendingGame> advance(uint64_t) override { return pending(); }
  std::vector<PendingGame> pending() const override {
    std::vector<PendingGame> games;
    for (MatchId id : knockout_.pairings()) {
      const auto seats = knockout_.next_game_seats(id);
      if (!seats) continue;
      games.push_back(PendingGame{(uint64_t{id} << kGamesBits) | played(id),
                                  knockout_.matches()[id].round, {seats->first, seats->second}});
    }
    return games;
  }
  Refusal record(uint64_t key, const std::vector<uint8_t>& places) override {
    const auto id = static_cast<MatchId>(key >> kGamesBits);
    if (id >= knockout_.matches().size()) return Refusal::kUnknownMatch;
    if ((key & ((uint64_t{1} << kGamesBits) - 1)) != played(id)) return Refusal::kResultTwice;
    const auto seats = knockout_.next_game_seats(id);
    const std::optional<Outcome> outcome = outcome_of(places);
    if (!seats) return knockout_.matches()[id].winner ? Refusal::kResultTwice : Refusal::kUnknownMatch;
    if (!outcome) return Refusal::kBadResult;
    if (*outcome == Outcome::kDraw) return knockout_.record_game(id, Outcome::kDraw);
    // The library counts from the match's first player; the game's seat 0 may be either.
    const PlayerId winner = *outcome == Outcome::kFirstWins ? seats->first : seats->second;
    const PlayerId match_first = knockout_.player_of_seed(knockout_.matches()[id].first);
    return knockout_.record_game(
        id, winner == match_first ? Outcome::kFirstWins : Outcome::kSecondWins);
  }
  bool over(uint64_t) const override { return knockout_.finished(); }
  uint32_t round() const override {
    uint32_t round = 0;
    for (MatchId id : knockout_.pairings()) round = std::max(round, knockout_.matches()[id].round);
    return round != 0 || !knockout_.finished() ? round : knockout_.rounds();
  }
  std::vector<StandingRow> standings() const override {
    std::vector<StandingRow> rows;
    uint32_t rank = 0;
    for (const KnockoutStanding& s : knockout_.standings()) {
      ++rank;
      const Player* player = knockout_.ledger().find(s.id);
      StandingRow row{s.place != 0 ? s.place : rank, s.id, player ? player->rating : 0, 0,
                      static_cast<int32_t>(s.round_reached), s.seed, 0, 0, 0, 0,
                      player && !player->active()};
      count_games(s.id, row);
      rows.push_back(row);
    }
    return rows;
  }
  const Ledger& ledger() const override { return knockout_.ledger(); }
  std::string serialize() const override { return knockout_.serialize(); }

 private:
  uint32_t played(MatchId id) const {
    const KnockoutMatch& match = knockout_.matches()[id];
    return match.first_wins + match.second_wins + match.draws;
  }
  void count_games(PlayerId id, StandingRow& row) const {
    for (const KnockoutMatch& match : knockout_.matches()) {
      if (match.first <= 0 || match.second <= 0) continue;
      const bool first = knockout_.player_of_seed(match.first) == id;
      if (!first && knockout_.player_of_seed(match.second) != id) continue;
      const uint32_t won = first ? match.first_wins : match.second_wins;
      const uint32_t lost = first ? match.second_wins : match.first_wins;
      row.games += won + lost + match.draws;
      row.wins += won;
      row.losses += lost;
      row.draws += match.draws;
    }
  }
  KnockoutTournament knockout_;
};

}  // namespace

std::unique_ptr<Format> make_format(const FormatConfig& c) {
  switch (c.kind) {
    case FormatKind::kSwiss:
      return std::make_unique<SwissFormat>(
          SwissTournament(SwissConfig{c.rounds, c.max_players, c.table_seats, c.min_players}));
    case FormatKind::kArena:
      return std::make_unique<ArenaFormat>(ArenaTournament(
          ArenaConfig{c.duration_ms, c.max_players, c.rematch_wait_ms, c.min_players}));
    case FormatKind::kKnockout:
      return std::make_unique<KnockoutFormat>(
          KnockoutTournament(KnockoutConfig{c.max_players, c.best_of, c.min_players}));
  }
  return nullptr;
}

Refusal restore_format(FormatKind kind, const std::string& text, std::unique_ptr<Format>& out) {
  Refusal refusal = Refusal::kBadEncoding;
  switch (kind) {
    case FormatKind::kSwiss: {
      SwissTournament swiss;
      refusal = SwissTournament::restore(text, swiss);
      if (refusal == Refusal::kOk) out = std::make_unique<SwissFormat>(std::move(swiss));
      break;
    }
    case FormatKind::kArena: {
      ArenaTournament arena;
      refusal = ArenaTournament::restore(text, arena);
      if (refusal == Refusal::kOk) out = std::make_unique<ArenaFormat>(std::move(arena));
      break;
    }
    case FormatKind::kKnockout: {
      KnockoutTournament knockout;
      refusal = KnockoutTournament::restore(text, knockout);
      if (refusal == Refusal::kOk) out = std::make_unique<KnockoutFormat>(std::move(knockout));
      break;
    }
  }
  return refusal;
}

}  // namespace duelhall::tournaments
