// Swiss over thousands of random results, checked against brute force on small fields: no
// avoidable repeat, the smallest score gap any repeat-free pairing allows, the bye where the
// rules put it, at most one bye each, first seats balanced, standings equal to a recount, and a
// restored tournament pairing as the original.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "tournaments/swiss.hpp"

using namespace duelhall::tournaments;

namespace {

using Met = std::set<std::pair<PlayerId, PlayerId>>;

bool met(const Met& pairs, PlayerId a, PlayerId b) { return pairs.count(std::minmax(a, b)) > 0; }

// The smallest largest-gap over repeat-free perfect matchings of `players`; -1 when none.
int32_t best_gap(std::vector<SwissEntrant> players, const Met& pairs) {
  if (players.empty()) return 0;
  SwissEntrant top = players.front();
  players.erase(players.begin());
  int32_t best = -1;
  for (size_t i = 0; i < players.size(); ++i) {
    if (met(pairs, top.id, players[i].id)) continue;
    std::vector<SwissEntrant> rest = players;
    rest.erase(rest.begin() + static_cast<long>(i));
    int32_t gap = best_gap(rest, pairs);
    if (gap < 0) continue;
    gap = std::max(gap, std::abs(top.points - players[i].points));
    if (best < 0 || gap < best) best = gap;
  }
  return best;
}

struct Field {
  explicit Field(SwissConfig config) : swiss(config) {}
  SwissTournament swiss;
  Met pairs;
  std::map<PlayerId, int> balance;
  std::map<PlayerId, int> byes;
};

std::vector<SwissEntrant> entrants_of(const Field& field) {
  std::vector<SwissEntrant> list;
  for (const Player& player : field.swiss.ledger().players()) {
    if (!player.active()) continue;
    SwissEntrant entrant{player.id, field.swiss.ledger().points(player.id), player.rating};
    entrant.had_bye = field.byes.count(player.id) > 0;
    list.push_back(entrant);
  }
  rank_entrants(list);
  return list;
}

// `brute_force`: check the pairing against every pairing of the round (small fields only).
void play_round(Field& field, std::mt19937_64& random, bool brute_force) {
  std::vector<SwissEntrant> ranked = entrants_of(field);
  bool bye_available = std::any_of(ranked.begin(), ranked.end(),
                                   [](const SwissEntrant& e) { return !e.had_bye; });
  // What brute force says the round must do.
  std::optional<PlayerId> expected_bye;
  bool repeat_free_exists =
      brute_force && ranked.size() % 2 == 0 && best_gap(ranked, field.pairs) >= 0;
  if (brute_force && ranked.size() % 2 == 1) {
    for (size_t i = ranked.size(); i-- > 0;) {
      if (ranked[i].had_bye) continue;
      std::vector<SwissEntrant> rest = ranked;
      rest.erase(rest.begin() + static_cast<long>(i));
      if (best_gap(rest, field.pairs) >= 0) {
        expected_bye = ranked[i].id;
        repeat_free_exists = true;
        break;
      }
    }
  }
  std::vector<GameId> games;
  REQUIRE(field.swiss.next_round(&games) == Refusal::kOk);
  const SwissPairing& pairing = field.swiss.last_pairing();
  CHECK_FALSE(pairing.search_gave_up);
  if (repeat_free_exists) {
    REQUIRE_FALSE(pairing.repeats_forced);
    if (expected_bye) CHECK(pairing.bye == expected_bye);
    std::vector<SwissEntrant> rest;
    for (const SwissEntrant& e : ranked) {
      if (!pairing.bye || e.id != *pairing.bye) rest.push_back(e);
    }
    CHECK(pairing.score_gap == best_gap(rest, field.pairs));
  }
  int32_t largest = 0;
  for (GameId id : games) {
    const Game& game = *field.swiss.ledger().game(id);
    if (game.bye()) {
      int byes = ++field.byes[game.seats[0]];
      if (bye_available) CHECK(byes == 1);
      continue;
    }
    PlayerId first = game.seats[0], second = game.seats[1];
    if (repeat_free_exists) CHECK_FALSE(met(field.pairs, first, second));
    largest = std::max(largest, std::abs(field.swiss.ledger().points(first) -
                                         field.swiss.ledger().points(second)));
    // The first seat went to the lower balance; a balance past 1 only when both leaned one way.
    int before_first = field.balance[first], before_second = field.balance[second];
    CHECK(before_first <= before_second);
    if (before_first >= 1 || before_second <= -1) {  // a balance grows past 1
      CHECK(((before_first > 0 && before_second > 0) || (before_first < 0 && before_second < 0)));
    }
    ++field.balance[first];
    --field.balance[second];
    field.pairs.insert(std::minmax(first, second));
  }
  if (games.size() > 1 || !pairing.bye) CHECK(largest == pairing.score_gap);
  for (GameId id : games) {
    if (field.swiss.ledger().game(id)->bye()) continue;
    const Game& game = *field.swiss.ledger().game(id);
    // Biased by rating: the higher-rated wins more often.
    uint64_t roll = random() % 100;
    bool first_stronger = field.swiss.ledger().find(game.seats[0])->rating >
                          field.swiss.ledger().find(game.seats[1])->rating;
    Outcome outcome = roll < 15 ? Outcome::kDraw
                      : (roll < 65) == first_stronger ? Outcome::kFirstWins
                                                      : Outcome::kSecondWins;
    REQUIRE(field.swiss.record_result(id, outcome) == Refusal::kOk);
  }
}

void check_standings_match_recount(const SwissTournament& swiss) {
  for (const Standing& standing : swiss.standings()) {
    CHECK(standing.points == swiss.ledger().points(standing.id));
  }
}

}  // namespace

TEST_CASE("tournaments: Swiss property: no avoidable repeat, smallest score gap, byes, seats") {
  std::mt19937_64 random(35);
  int rounds_played = 0;
  for (int trial = 0; trial < 400; ++trial) {
    uint32_t players = 3 + static_cast<uint32_t>(random() % 8);  // 3..10
    uint32_t rounds = 1 + static_cast<uint32_t>(random() % (players - 1));
    Field field(SwissConfig{rounds});
    for (uint32_t i = 1; i <= players; ++i) {
      REQUIRE(field.swiss.add_player(i, 1200 + static_cast<int32_t>(random() % 1000)) ==
              Refusal::kOk);
    }
    for (uint32_t round = 0; round < rounds; ++round) {
      if (players > 4 && random() % 10 == 0) {
        (void)field.swiss.withdraw(1 + random() % players);
      }
      if (entrants_of(field).size() < 2) break;
      play_round(field, random, true);
      ++rounds_played;
    }
    check_standings_match_recount(field.swiss);
  }
  CHECK(rounds_played > 1000);
}

TEST_CASE("tournaments: Swiss property: a restored tournament pairs the next round the same") {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 40; ++trial) {
    uint32_t players = 6 + static_cast<uint32_t>(random() % 60);
    Field field(SwissConfig{6});
    for (uint32_t i = 1; i <= players; ++i) {
      REQUIRE(field.swiss.add_player(i * 7, 1000 + static_cast<int32_t>(random() % 1500)) ==
              Refusal::kOk);
    }
    uint32_t stop = static_cast<uint32_t>(random() % 5);
    for (uint32_t round = 0; round < stop; ++round) play_round(field, random, false);
    SwissTournament restored;
    REQUIRE(SwissTournament::restore(field.swiss.serialize(), restored) == Refusal::kOk);
    REQUIRE(restored == field.swiss);
    REQUIRE(restored.next_round() == Refusal::kOk);
    REQUIRE(field.swiss.next_round() == Refusal::kOk);
    CHECK(restored.ledger() == field.swiss.ledger());
    check_standings_match_recount(restored);
  }
}
