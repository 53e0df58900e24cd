#include <catch2/catch.hpp>

#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using storage::SqliteMatchStore;

namespace {

constexpr int64_t kDay = 24 * 60 * 60 * 1000;

std::vector<storage::MatchId> ids_of(const std::vector<storage::MatchSummary>& list) {
  std::vector<storage::MatchId> ids;
  for (const auto& s : list) ids.push_back(s.id);
  return ids;
}

// Matches 1..6 finished on days 1..6 (ann-n vs ben-n), and match 7 still live.
struct Fixture {
  testing::ScratchDir dir;
  engine::Registry registry = testing::toy_registry();
  SqliteMatchStore store{dir.file("d.db")};
  std::vector<storage::MatchId> finished;
  storage::MatchId live = 0;

  Fixture() {
    for (uint64_t n = 1; n <= 6; ++n) {
      auto state = testing::play_toy_match(registry, n);
      const auto id = testing::store_match(store, *state, n, static_cast<int64_t>(n) * kDay);
      store.finish_match(id, state->outcome(), static_cast<int64_t>(n) * kDay + 1);
      finished.push_back(id);
    }
    auto state = testing::play_toy_match(registry, 7, 4);
    live = testing::store_match(store, *state, 7, 0);
  }
};

}  // namespace

TEST_CASE("replay listing: ended matches only, most recent first, with paging") {
  Fixture f;
  auto recent = f.store.list_ended({});
  CHECK(ids_of(recent) == std::vector<storage::MatchId>{f.finished.rbegin(), f.finished.rend()});
  for (const auto& s : recent) {
    CHECK(s.revealed_seed);
    CHECK(s.steps > 0);
  }
  storage::ReplayQuery page;
  page.limit = 2;
  auto first = f.store.list_ended(page);
  CHECK(ids_of(first) == std::vector<storage::MatchId>{f.finished[5], f.finished[4]});
  page.before = first.back().id;
  CHECK(ids_of(f.store.list_ended(page)) ==
        std::vector<storage::MatchId>{f.finished[3], f.finished[2]});
}

TEST_CASE("replay listing by player name ignores case, and by ruleset") {
  Fixture f;
  storage::ReplayQuery by_player;
  by_player.player = "BEN-3";
  auto found = f.store.list_ended(by_player);
  REQUIRE(found.size() == 1);
  CHECK(found[0].id == f.finished[2]);
  CHECK(found[0].names == std::vector<std::string>{"ann-3", "ben-3"});
  by_player.player = "ann-7";  // still live: not a replay yet
  CHECK(f.store.list_ended(by_player).empty());
  storage::ReplayQuery by_ruleset;
  by_ruleset.ruleset = "toy_race";
  CHECK(f.store.list_ended(by_ruleset).size() == 6);
  by_ruleset.ruleset = "jedi_duel";
  CHECK(f.store.list_ended(by_ruleset).empty());
}

TEST_CASE("retention prunes ended matches by age and by count, never live ones") {
  Fixture f;
  storage::RetentionPolicy by_age;
  by_age.max_age_days = 3;
  // On day 7.5, matches ended on days 1..4 (4.0 + 1 ms < 4.5) are older than three days.
  auto report = f.store.prune(by_age, 7 * kDay + kDay / 2);
  CHECK(report.matches == 4);
  CHECK(report.actions > 0);
  CHECK(ids_of(f.store.list_ended({})) ==
        std::vector<storage::MatchId>{f.finished[5], f.finished[4]});
  storage::RetentionPolicy by_count;
  by_count.keep_finished = 1;
  CHECK(f.store.prune(by_count, 0).matches == 1);
  CHECK(ids_of(f.store.list_ended({})) == std::vector<storage::MatchId>{f.finished[5]});
  CHECK(f.store.prune(by_count, 0).matches == 0);
  // The live match survives any policy, its log intact.
  by_age.max_age_days = 0;
  by_count.keep_finished = 0;
  f.store.prune(by_age, 1000 * kDay);
  f.store.prune(by_count, 1000 * kDay);
  CHECK(f.store.list_ended({}).empty());
  REQUIRE(f.store.unfinished_matches().size() == 1);
  CHECK(f.store.load_match(f.live)->steps.size() == 4);
  // Pruned matches leave no seats or actions behind.
  storage::Database db(f.dir.file("d.db"), false);
  CHECK(db.query_int("SELECT count(*) FROM actions WHERE match_id != " + std::to_string(f.live)) ==
        0);
  CHECK(db.query_int("SELECT count(*) FROM match_seats WHERE match_id != " +
                     std::to_string(f.live)) == 0);
}
