#include "scenario.hpp"

using namespace yj_test;

TEST_CASE("young_jedi registers with its metadata and bot levels") {
  Registry registry = builtin_registry();
  const RulesetInfo* info = registry.find("young_jedi");
  REQUIRE(info);
  CHECK(info->display_name == "Young Jedi: Duel of the Fates");
  CHECK(info->min_seats == 2);
  CHECK(info->max_seats == 2);
  CHECK(info->view_message == "duelhall.young_jedi.View");
  CHECK(info->bot_levels == std::vector<std::string>{"random", "heuristic", "expert"});
  CHECK(registry.create("young_jedi", 3, Seed{}, {}).state == nullptr);
}

TEST_CASE("young_jedi heuristic bot plays legal moves and beats random play that never concedes") {
  Registry registry = builtin_registry();
  auto heuristic = registry.make_bot("young_jedi", "heuristic");
  const int games = 200;
  int heuristic_wins = 0;
  int ties = 0;
  for (int game = 0; game < games; ++game) {
    const Seat bot_seat = game % 2;
    auto created =
        registry.create("young_jedi", 2, seed_from_number(5000 + game), {},
                        {ready_decks()[game / 2 % 2].list, ready_decks()[2 + game / 4 % 2].list});
    REQUIRE(created.state);
    State& s = *created.state;
    Rng rng(seed_from_number(game));
    while (!s.terminal()) {
      Seat seat = s.pending().first();
      Action a;
      if (seat == bot_seat) {
        a = heuristic->choose(s, seat, rng);
        CHECK(a.kind != static_cast<uint8_t>(ActionKind::kConcede));
      } else {
        auto legal = s.legal_actions(seat);
        std::erase_if(
            legal, [](Action x) { return x.kind == static_cast<uint8_t>(ActionKind::kConcede); });
        a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      }
      REQUIRE(s.apply(seat, a).ok());
    }
    Outcome o = s.outcome();
    if (o.winners.count() == 2)
      ++ties;
    else if (o.winners.has(bot_seat))
      ++heuristic_wins;
  }
  WARN("heuristic won " << heuristic_wins << " of " << games << " games against random play ("
                        << ties << " ties)");
  CHECK(heuristic_wins > games * 6 / 10);
}
