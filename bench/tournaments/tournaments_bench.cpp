// Issue 35's tournament figures (scripts/bench-tournaments.sh): a 256-player Swiss of 8 rounds
// and a 256-player arena of 30 simulated minutes, results drawn at random and biased by rating
// (the Elo expectation, 10% draws). Prints the CPU time to pair a round (median and max), the
// repeat pairings where a repeat-free pairing existed (must be 0), lost or doubled matches (0)
// and whether the standings equal a recount of the recorded results. The arena runs twice: with
// no rematch wait, then with the default one, and prints the games paired against the last
// opponent and the finishers' waits for each.
//   tournaments_bench [tournaments of each kind, default 5] [seed, default 35]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "tournaments/arena.hpp"
#include "tournaments/swiss.hpp"

using namespace duelhall::tournaments;

namespace {

double cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

Outcome biased_result(std::mt19937_64& random, int32_t first_rating, int32_t second_rating) {
  double first_expect = 1.0 / (1.0 + std::pow(10.0, (second_rating - first_rating) / 400.0));
  double roll = static_cast<double>(random() % 1000000) / 1e6;
  if (roll < 0.10) return Outcome::kDraw;
  return (roll - 0.10) / 0.90 < first_expect ? Outcome::kFirstWins : Outcome::kSecondWins;
}

struct Timings {
  std::vector<double> ms;
  void print(const char* what) {
    std::sort(ms.begin(), ms.end());
    std::printf("  %s: %zu pairings, CPU median %.3f ms, max %.3f ms\n", what, ms.size(),
                ms.empty() ? 0.0 : ms[ms.size() / 2], ms.empty() ? 0.0 : ms.back());
  }
};

void swiss_runs(int runs, uint64_t seed) {
  Timings timings;
  long repeats_avoidable = 0, repeats_forced = 0, lost_or_doubled = 0, recount_mismatches = 0,
       search_gave_up = 0, second_byes = 0;
  for (int run = 0; run < runs; ++run) {
    std::mt19937_64 random(seed + static_cast<uint64_t>(run));
    SwissTournament swiss(SwissConfig{8, 256});
    for (PlayerId id = 1; id <= 256; ++id) {
      (void)swiss.add_player(id, 1000 + static_cast<int32_t>(random() % 1500));
    }
    std::set<std::pair<PlayerId, PlayerId>> met;
    std::map<PlayerId, int32_t> tally;  // half-points recounted here from what was recorded
    std::map<PlayerId, int> byes;
    for (int round = 0; round < 8; ++round) {
      std::vector<GameId> games;
      double start = cpu_ms();
      if (swiss.next_round(&games) != Refusal::kOk) std::abort();
      timings.ms.push_back(cpu_ms() - start);
      const SwissPairing& pairing = swiss.last_pairing();
      search_gave_up += pairing.search_gave_up ? 1 : 0;
      std::map<PlayerId, int> seen;
      for (GameId id : games) {
        const Game& game = *swiss.ledger().game(id);
        for (PlayerId seat : game.seats) ++seen[seat];
        if (game.bye()) {
          tally[game.seats[0]] += 2;
          second_byes += ++byes[game.seats[0]] > 1 ? 1 : 0;
          continue;
        }
        bool repeat = !met.insert(std::minmax(game.seats[0], game.seats[1])).second;
        if (repeat) (pairing.repeats_forced ? repeats_forced : repeats_avoidable) += 1;
        Outcome outcome = biased_result(random, swiss.ledger().find(game.seats[0])->rating,
                                        swiss.ledger().find(game.seats[1])->rating);
        if (swiss.record_result(id, outcome) != Refusal::kOk) std::abort();
        tally[game.seats[0]] += half_points(*swiss.ledger().game(id), 0);
        tally[game.seats[1]] += half_points(*swiss.ledger().game(id), 1);
      }
      for (const Player& player : swiss.ledger().players()) {
        if (seen[player.id] != 1) ++lost_or_doubled;
      }
    }
    for (const Standing& standing : swiss.standings()) {
      if (standing.points != tally[standing.id] ||
          standing.points != swiss.ledger().points(standing.id)) {
        ++recount_mismatches;
      }
    }
  }
  std::printf("Swiss: %d tournaments of 256 players, 8 rounds\n", runs);
  timings.print("rounds paired");
  std::printf("  repeat pairings where a repeat-free pairing existed: %ld (forced: %ld)\n",
              repeats_avoidable, repeats_forced);
  std::printf(
      "  lost or doubled players in a round: %ld; second byes: %ld; search budget "
      "spent: %ld\n",
      lost_or_doubled, second_byes, search_gave_up);
  std::printf("  standings equal to a recount: %s\n", recount_mismatches == 0 ? "yes" : "NO");
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(q * values.size()))];
}

void arena_runs(int runs, uint64_t seed, uint64_t rematch_wait_ms) {
  Timings timings;
  long lost_or_doubled = 0, recount_mismatches = 0, games_played = 0, last_opponent_again = 0;
  std::vector<double> waits;  // seconds from a result to the player's next game
  for (int run = 0; run < runs; ++run) {
    std::mt19937_64 random(seed + 1000 + static_cast<uint64_t>(run));
    ArenaTournament arena(ArenaConfig{30 * 60 * 1000, 256, rematch_wait_ms});
    for (PlayerId id = 1; id <= 256; ++id) {
      (void)arena.add_player(id, 1000 + static_cast<int32_t>(random() % 1500), 0);
    }
    (void)arena.start(0);
    std::multimap<uint64_t, GameId> ends;
    std::map<PlayerId, PlayerId> last_opponent;
    std::map<PlayerId, uint64_t> finished_at;
    uint64_t now = 0;
    for (;;) {
      std::vector<GameId> games;
      double start = cpu_ms();
      Refusal refusal = arena.pair_waiting(now, &games);
      if (refusal == Refusal::kOk) timings.ms.push_back(cpu_ms() - start);
      std::vector<PlayerId> pool = arena.waiting();
      for (GameId id : games) {
        const Game& game = *arena.ledger().game(id);
        auto it = last_opponent.find(game.seats[0]);
        if (it != last_opponent.end() && it->second == game.seats[1]) ++last_opponent_again;
        for (PlayerId seat : game.seats) {
          if (finished_at.count(seat)) waits.push_back((now - finished_at[seat]) / 1000.0);
        }
        ends.emplace(now + 120000 + random() % 480000, id);  // 2 to 10 minutes a game
      }
      // Every player waits or sits in exactly one game; while the arena runs, those left
      // waiting are one player at most, or two who just met and wait for someone else.
      std::map<PlayerId, int> running;
      for (const auto& entry : ends) {
        for (PlayerId seat : arena.ledger().game(entry.second)->seats) ++running[seat];
      }
      for (const Player& player : arena.ledger().players()) {
        int places = running[player.id] + (arena.playing(player.id) ? 0 : 1);
        if (places != 1) ++lost_or_doubled;
      }
      bool held_back = pool.size() == 2 && last_opponent[pool[0]] == pool[1];
      if (refusal == Refusal::kOk && pool.size() > 1 && !held_back) ++lost_or_doubled;
      // The next event: a result, or the end of a held-back rematch's wait.
      std::optional<uint64_t> retry = arena.retry_at_ms();
      if (ends.empty() && !retry) break;
      if (retry && (ends.empty() || *retry < ends.begin()->first)) {
        now = *retry;
        continue;
      }
      auto next = ends.begin();
      now = next->first;
      const Game& game = *arena.ledger().game(next->second);
      Outcome outcome = biased_result(random, arena.ledger().find(game.seats[0])->rating,
                                      arena.ledger().find(game.seats[1])->rating);
      for (size_t seat = 0; seat < 2; ++seat) {
        last_opponent[game.seats[seat]] = game.seats[1 - seat];
        finished_at[game.seats[seat]] = now;
      }
      if (arena.record_result(next->second, outcome) != Refusal::kOk) std::abort();
      ++games_played;
      ends.erase(next);
    }
    if (!(arena.standings() == arena.recount())) ++recount_mismatches;
  }
  std::printf(
      "Arena: %d tournaments of 256 players, 30 simulated minutes, games of 2-10 min, "
      "rematch wait %.0f s\n",
      runs, static_cast<double>(rematch_wait_ms) / 1000);
  std::printf("  games played: %ld; paired against the last opponent: %ld\n", games_played,
              last_opponent_again);
  double total_wait = 0;
  for (double wait : waits) total_wait += wait;
  std::printf(
      "  wait from a result to the next game: mean %.1f s, median %.1f s, p99 %.1f s, "
      "max %.1f s\n",
      waits.empty() ? 0.0 : total_wait / static_cast<double>(waits.size()), quantile(waits, 0.5),
      quantile(waits, 0.99), quantile(waits, 1.0));
  timings.print("pool pairings (after every result and held-back wait)");
  std::printf("  lost or doubled players: %ld\n", lost_or_doubled);
  std::printf("  standings equal to a recount: %s\n", recount_mismatches == 0 ? "yes" : "NO");
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 35;
  swiss_runs(runs, seed);
  arena_runs(runs, seed, 0);  // no wait: finishers meet again at once, as before the wait
  arena_runs(runs, seed, ArenaConfig{}.rematch_wait_ms);
  return 0;
}
