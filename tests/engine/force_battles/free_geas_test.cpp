// Diamedes' free GEAS (F2, F14): once per round, without paying, worth one counter.
#include "scenario.hpp"

using namespace fb_test;

TEST_CASE("F2 Diamedes' free GEAS costs nothing, once per round") {
  SetupChoice master;
  master.free_geas = kPush;
  auto s = battle(master, {}, {5, 1}, "diamedes");
  to_battle_window(*s, kHead);
  CHECK(s->legal_actions(0) == std::vector<Action>{pass(), use(kPush, 1, true)});
  const int pool = board(*s, 0).pool.total();
  act(*s, 0, use(kPush, 1, true));
  CHECK(board(*s, 0).pool.total() == pool);
  CHECK(s->match().pushed);
  CHECK(s->match().players[0].free_used);
}

TEST_CASE("F14 a free Protect is worth one counter") {
  SetupChoice master;
  master.free_geas = kProtect;
  // The attack roll of 12 misses; the defence roll of 6 blocks only with the free counter.
  auto s = battle({}, master, {5, 1, 6, 6, 3, 3}, "diamedes");
  to_battle_window(*s, kHead);
  REQUIRE(s->block_die() == 5);
  const std::string events = act_events(*s, 1, use(kProtect, 1, true));
  CHECK(s->match().players[1].bonus == 1);
  CHECK(board(*s, 1).targets[kHead].total() == 0);  // no counter went into the target
  CHECK(events.find("Block Die 6") != std::string::npos);
  CHECK(s->match().block);  // DEF 5 + 1 = 6 against a roll of 6
}

TEST_CASE("F14 a free Protect costs no counter: the target returns as usual") {
  SetupChoice master;
  master.free_geas = kProtect;
  auto s = battle({}, master, {5, 1, 1, 1, 1, 1}, "diamedes");
  const int pool = board(*s, 1).pool.total();
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 1, use(kProtect, 1, true));  // hit and block
  // Nothing went to the pool; the 2 pulled counters go back next to the head only.
  CHECK(board(*s, 1).pool.total() == pool);
  REQUIRE(s->match().phase == Phase::kPlacement);
  CHECK(s->match().buffer.total() == 2);
  CHECK_FALSE(is_legal(*s, 1, place(kRL, 1)));
  CHECK(is_legal(*s, 1, place(kHL, 2)));
}

TEST_CASE("F14 a free Rage costs no counter: the hand target returns as usual") {
  SetupChoice master = dark();
  master.free_geas = kRage;
  auto s = battle(master, {}, {5, 1, 1, 1, 1, 1}, "diamedes");
  const int pool = board(*s, 0).pool.total();
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pull(kHR, 3));
  act(*s, 0, pass());
  act(*s, 0, use(kRage, 1, true));  // hit and block
  act(*s, 1, pass());               // F39: no gift, she rolls her DEF
  CHECK(board(*s, 0).pool.total() == pool);
  REQUIRE(s->match().phase == Phase::kPlacement);
  CHECK(s->pending() == SeatMask::only(0));
  CHECK(s->match().buffer.total() == 3);
  CHECK_FALSE(is_legal(*s, 0, place(kLL, 1)));
  CHECK(is_legal(*s, 0, place(kHR, 3)));
}

TEST_CASE("F2 Diamedes' free use is once per round and comes back the next round") {
  SetupChoice master = dark(with({}, kLightning, 1));
  master.free_geas = kLightning;
  auto s = battle(master, {}, {5, 1}, "diamedes");
  to_battle_window(*s, kHead);
  REQUIRE(s->pending() == SeatMask::only(0));
  CHECK(is_legal(*s, 0, use(kLightning, 1, true, kHL)));
  act(*s, 0, use(kLightning, 1, true, kHL));
  CHECK(board(*s, 0).geas[kLightning].total() == 1);  // the free throw cost nothing
  REQUIRE(s->pending() == SeatMask::only(0));         // seat 1 has nothing to answer with
  CHECK_FALSE(is_legal(*s, 0, use(kLightning, 1, true, kHL)));
  CHECK(is_legal(*s, 0, use(kLightning, 1, false, kHL)));
  s->force_dice({1, 1, 1, 1});  // hit and block
  act(*s, 0, pass());
  act(*s, 1, pass());  // no gift
  REQUIRE(s->match().round == 2);
  CHECK_FALSE(s->match().players[0].free_used);
}
