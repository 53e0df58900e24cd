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

TEST_CASE("Y29: the bots answer a draw deck search with a legal action") {
  // Orr'UrRuuR'R deployed to Tatooine: the heuristic bot deploys a Tusken Raider found, rather
  // than take the penalty; with none to find it ends the search. Every level stays legal.
  Registry registry = builtin_registry();
  for (bool tusken_in_deck : {true, false}) {
    INFO("Tusken Raider in the deck: " << tusken_in_deck);
    auto s = duel_position(1, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
    Table& t = s->scenario_table();
    t.planet = 0;
    t.phase = Phase::kDeploy;
    t.players[1].hand = cards({"8_36"});
    if (tusken_in_deck) t.players[1].draw.push_back(id("Tusken Raider, Nomad"));
    apply_ok(*s, 1, card_act(ActionKind::kDeploy, "8_36"));
    REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
    Rng rng(seed_from_number(29));
    for (const char* level : {"random", "heuristic", "expert"}) {
      INFO(level);
      Action a = registry.make_bot("young_jedi", level)->choose(*s, 1, rng);
      CHECK(legal(*s, 1, a));
      if (std::string_view(level) == "heuristic") {
        CHECK(a == (tusken_in_deck ? card_act(ActionKind::kDeployFromDeck, "Tusken Raider, Nomad")
                                   : act(ActionKind::kEndSearch)));
      }
    }
  }
}
