// The tournaments of the account stores (storage/tournament_store.hpp), on both backends
// (backends.hpp): a record keeps what it is given, a save replaces its status and state, open
// ones come back oldest first for a restart, and the past ones the last changed first.
#include <catch2/catch.hpp>

#include "backends.hpp"

using namespace duelhall;
using testing::PostgresBackend;
using testing::SqliteBackend;

namespace {

storage::TournamentRecord tournament(const std::string& name, int32_t status, int64_t at) {
  storage::TournamentRecord t;
  t.name = name;
  t.ruleset = "jedi_duel";
  t.status = status;
  t.start_ms = at + 60'000;
  t.updated_ms = at;
  t.state = "duelhall-tournament-room 1\n" + name + "\n";
  return t;
}

}  // namespace

TEMPLATE_TEST_CASE("tournaments keep their record, a save replaces status and state, open ones "
                   "come back oldest first and past ones the last changed first",
                   "[store]", SqliteBackend, PostgresBackend) {
  TestType backend;
  auto store = backend.open_accounts();
  storage::TournamentRecord spring = tournament("Spring Swiss", 0, 100);
  spring.id = store->add_tournament(spring);
  storage::TournamentRecord arena = tournament("Night arena", 1, 200);
  arena.id = store->add_tournament(arena);
  storage::TournamentRecord old = tournament("Old knockout", 0, 50);
  old.id = store->add_tournament(old);
  CHECK(spring.id != arena.id);

  const auto found = store->find_tournament(arena.id);
  REQUIRE(found);
  CHECK(*found == arena);
  CHECK_FALSE(store->find_tournament(arena.id + old.id + 1));

  old.status = 2;
  old.updated_ms = 900;
  old.state += "final standings\n";
  CHECK(store->save_tournament(old));
  spring.status = 3;
  spring.updated_ms = 300;
  CHECK(store->save_tournament(spring));
  storage::TournamentRecord missing = old;
  missing.id = old.id + arena.id + spring.id;
  CHECK_FALSE(store->save_tournament(missing));

  const auto open = store->open_tournaments();
  REQUIRE(open.size() == 1);
  CHECK(open[0] == arena);
  const auto past = store->past_tournaments(10);
  REQUIRE(past.size() == 2);
  CHECK(past[0] == old);
  CHECK(past[1] == spring);
  CHECK(store->past_tournaments(1).size() == 1);
}
