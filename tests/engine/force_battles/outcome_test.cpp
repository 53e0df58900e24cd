// Outcomes and counter movements (F5), taking, giving and turning, and the end (F6).
#include "scenario.hpp"

using namespace fb_test;

namespace {

// Seat `attacker` wins round 1's initiative (dice first), attacks and names `target`.
void open_attack(ForceBattlesState& s, Seat attacker, int target) {
  act(s, attacker, Action::make(kAttack));
  act(s, attacker, choose(target));
}

}  // namespace

TEST_CASE("F5 a hit that is not blocked moves D6 from the target to the defender's pool") {
  auto s = battle({}, {}, {5, 1, 1, 2, 6, 6, 2});
  open_attack(*s, 0, kHead);
  act(*s, 1, pull(kHL, 3));
  act(*s, 1, pass());
  act(*s, 0, pass());
  CHECK(board(*s, 1).pool.total() == 2);
  CHECK_FALSE(s->terminal());
  // The one counter left goes back to a sphere next to the head (F5): the defender chooses.
  CHECK(s->match().phase == Phase::kPlacement);
  CHECK(s->pending() == SeatMask::only(1));
  CHECK_FALSE(is_legal(*s, 1, place(kLT, 1)));
  act(*s, 1, place(kHL, 1));
  CHECK(sphere(*s, 1, kHL) == 1);
  CHECK(s->match().round == 2);
}

TEST_CASE("F5 a maiming hit: more damage than counters in the target ends the battle") {
  auto s = battle({}, {}, {5, 1, 1, 2, 6, 6, 3});
  open_attack(*s, 0, kHead);
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(s->outcome().reason.find("head is maimed") != std::string::npos);
  CHECK(board(*s, 1).pool.total() == 2);
}

TEST_CASE("F5 damage equal to the counters in the target empties it without a maim") {
  auto s = battle({}, {}, {5, 1, 1, 2, 6, 6, 2});
  open_attack(*s, 0, kHead);
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pass());
  act(*s, 0, pass());
  CHECK_FALSE(s->terminal());
  CHECK(board(*s, 1).targets[kHead].total() == 0);
}

TEST_CASE("F5 a hit against a block: nothing happens and the counters go back") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1});
  open_attack(*s, 0, kLeftLeg);
  act(*s, 1, pull(kLL, 3));
  act(*s, 1, pass());
  act(*s, 0, pull(kRT, 3));
  act(*s, 0, pass());
  // The leg has one sphere, so the defender's return is forced; the attacker chooses.
  CHECK(sphere(*s, 1, kLL) == 3);
  CHECK(s->pending() == SeatMask::only(0));
  act(*s, 0, place(kHR, 1));
  act(*s, 0, place(kRT, 2));
  CHECK(sphere(*s, 0, kRT) == 2);
  CHECK(sphere(*s, 0, kHR) == 4);
  CHECK(board(*s, 1).pool.total() == 0);
  CHECK(s->match().round == 2);
}

TEST_CASE("F5 a miss against a block regains D6 from the pool") {
  auto s = battle({}, {}, {5, 1, 6, 6, 1, 1, 3}, "initiate");
  REQUIRE(board(*s, 1).pool.total() == 4);
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->match().phase == Phase::kReward);
  CHECK_FALSE(is_legal(*s, 1, Action::make(kRegain, 1)));  // Light does not take from Light
  act(*s, 1, Action::make(kRegain, 0));
  CHECK(s->match().buffer.total() == 3);
  CHECK_FALSE(is_legal(*s, 1, place(kHL, 2)));  // no sphere above 4
  act(*s, 1, place(kHL, 1));
  act(*s, 1, place(kHR, 1));
  act(*s, 1, Action::make(kPoolRest));
  CHECK(sphere(*s, 1, kHL) == 4);
  CHECK(sphere(*s, 1, kHR) == 4);
  CHECK(board(*s, 1).pool.total() == 2);
  CHECK(s->match().round == 2);
}

TEST_CASE("F5 the regain is as many counters as the pool holds") {
  auto s = battle({}, {}, {5, 1, 6, 6, 1, 1, 6}, "initiate");
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 1, Action::make(kRegain, 0));
  CHECK(s->match().buffer.total() == 4);
}

TEST_CASE("F5 a double botch lets both rearrange their stance, the attacker losing nothing") {
  auto s = battle({}, {}, {5, 1, 6, 6, 6, 6});
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->match().phase == Phase::kStance);
  CHECK(s->pending() == SeatMask::only(0));
  act(*s, 0, Action::make(kStanceRearrange));
  CHECK(s->match().buffer.total() == 21);
  for (int sp = 0; sp < 4; ++sp) act(*s, 0, place(sp, 4));
  // 16 placed, 5 left for three empty spheres: 4 more here would leave two spheres empty (F10).
  CHECK_FALSE(is_legal(*s, 0, place(kRT, 4)));
  act(*s, 0, place(kRT, 3));
  act(*s, 0, place(kLL, 1));
  act(*s, 0, place(kRL, 1));
  CHECK(sphere(*s, 0, kHL) == 4);
  CHECK(sphere(*s, 0, kRL) == 1);
  CHECK(board(*s, 0).pool.total() == 0);
  CHECK(s->pending() == SeatMask::only(1));
  s->force_dice({6, 1});
  act(*s, 1, Action::make(kStanceKeep));
  // Seed: after a double botch the initiative winner chooses where to attack.
  act(*s, 0, Action::make(kAttack));
  CHECK(s->match().chooser == 0);
}

TEST_CASE("F1 counters going back past 4 in a sphere go to the pool") {
  // A kick's leg counters go back to the one sphere next to the leg.
  auto s = battle(dark(), {}, {5, 1, 2, 2, 6, 6}, "initiate");
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pull(kRT, 3));
  act(*s, 0, Action::make(kKick));
  act(*s, 0, pull(kRL, 1));
  CHECK(board(*s, 0).targets[kRightLeg].total() == 4);
  act(*s, 0, pass());
  act(*s, 1, pass());  // F39: no gift, she rolls her DEF
  // RL has 2, room for 2: the other 2 go to the pool.
  CHECK(sphere(*s, 0, kRL) == 4);
  CHECK(board(*s, 0).pool.total() == 4 + 2);
}

TEST_CASE("Seed a successful kick wins the next initiative, takes a counter and a new stance") {
  auto s = battle(dark(), {}, {5, 1, 2, 2, 6, 6}, "initiate");
  const auto inventory = s->inventory();
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, Action::make(kKick));
  act(*s, 0, pull(kRL, 2));
  act(*s, 0, pass());
  act(*s, 1, pass());  // F39: no gift, she rolls her DEF
  CHECK(s->match().kick_initiative == 0);
  REQUIRE(s->match().phase == Phase::kKickTake);
  act(*s, 0, Action::make(kTake));  // the Dark kicker takes the opponent's colour from its pool
  CHECK(board(*s, 1).pool.total() == 3);
  act(*s, 0, place(kHL, 1));
  CHECK(board(*s, 0).spheres[kHL].of(1) == 1);
  REQUIRE(s->match().phase == Phase::kStance);
  act(*s, 0, Action::make(kStanceKeep));
  CHECK(s->match().round == 2);
  CHECK(s->match().initiative == 0);  // no dice were needed
  CHECK(s->inventory() == inventory);
}

TEST_CASE("Seed a Light kicker gets back one of her own counters from the Dark side") {
  auto s = battle({}, dark(), {5, 1, 2, 2, 6, 6}, "initiate");
  // Hand-built: one Light counter sits in the Dark player's LT sphere.
  move_counters(board_mut(*s, 0).pool, board_mut(*s, 1).spheres[kLT], 1, 0);
  board_mut(*s, 1).spheres[kLT].by_owner[1] = 2;
  board_mut(*s, 1).pool.by_owner[1] = 5;
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, Action::make(kKick));
  act(*s, 0, pass());
  act(*s, 0, Action::make(kTake));
  CHECK(board(*s, 1).spheres[kLT].of(0) == 0);
  CHECK(s->match().buffer.of(0) == 1);
}

TEST_CASE("Seed a Dark defender takes the opponent's counters from the opponent's pool") {
  auto s = battle({}, dark(), {5, 1, 6, 6, 1, 1, 3}, "initiate");
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 1, Action::make(kRegain, 1));
  act(*s, 1, Action::make(kPoolRest));
  CHECK(board(*s, 1).pool.of(0) == 3);
  CHECK(board(*s, 0).pool.total() == 1);
  CHECK(s->match().players[1].side == kDark);
}

TEST_CASE("Seed a Light player who takes red counters turns Dark and loses Light GEAS") {
  SetupChoice light;
  light.geas[kProtect] = 2;
  light.geas[kHide] = 1;
  auto s = battle(dark(), light, {5, 1, 6, 6, 1, 1, 2}, "templar");
  // The opening window offers Hide to seat 1 only after seat 0 passes (seat 0 has nothing).
  act(*s, 1, pass());
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 1, pass());  // no Protect this time
  act(*s, 1, pass());  // F39: no gift, she rolls her DEF
  REQUIRE(s->match().phase == Phase::kReward);
  act(*s, 1, Action::make(kRegain, 1));
  CHECK(s->match().players[1].side == kDark);
  CHECK(board(*s, 1).geas[kProtect].total() == 0);
  CHECK(board(*s, 1).geas[kHide].total() == 1);
  CHECK(board(*s, 1).pool.of(1) == 9 - 3 + 2);
}

TEST_CASE("Seed conversion: four Light counters in the Dark center sphere win") {
  auto s = battle({}, dark(), {1, 5, 1, 1, 1, 1});
  // Hand-built: three Light counters already in the Dark player's center.
  Board& d = board_mut(*s, 1);
  move_counters(d.spheres[kCenter], d.pool, 3, 1);
  move_counters(board_mut(*s, 0).spheres[kHL], d.spheres[kCenter], 3, 0);
  open_attack(*s, 1, kHead);
  act(*s, 0, pass());
  act(*s, 1, pass());
  REQUIRE(s->match().phase == Phase::kGift);
  CHECK_FALSE(is_legal(*s, 0, Action::make(kGive, kHL)));  // HL is empty now
  act(*s, 0, Action::make(kGive, 7));                      // from ATT
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(s->outcome().reason.find("conversion") != std::string::npos);
}

TEST_CASE("Seed the gift needs room in the Dark center sphere") {
  auto s = battle({}, dark(), {1, 5, 1, 1, 1, 1});
  move_counters(board_mut(*s, 1).spheres[kHL], board_mut(*s, 1).spheres[kCenter], 1, 1);
  open_attack(*s, 1, kHead);
  act(*s, 0, pass());
  act(*s, 1, pass());
  CHECK(s->match().phase != Phase::kGift);  // the center is full: no gift is offered
  CHECK(s->match().round == 2);
}

TEST_CASE("F6 every sphere around a target at 0 ends the battle") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1});
  Board& b = board_mut(*s, 1);
  move_counters(b.spheres[kLL], b.pool, 3, 0);
  open_attack(*s, 0, kHead);
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(s->outcome().reason.find("left leg") != std::string::npos);
}

TEST_CASE("F6 at the round limit the player with more counters on the board wins") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1}, "learner", 1);
  Board& b = board_mut(*s, 1);
  move_counters(b.spheres[kHL], b.pool, 1, 0);
  open_attack(*s, 0, kHead);
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(s->outcome().scores == std::vector<int32_t>{31, 30});
}

TEST_CASE("F34 equal boards at the round limit are a draw") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1}, "learner", 1);
  open_attack(*s, 0, kHead);
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->terminal());
  CHECK(s->outcome().draw());
}

TEST_CASE("F33 both boards losing a target's spheres at once is a draw") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1});
  for (Seat seat = 0; seat < 2; ++seat) {
    Board& b = board_mut(*s, seat);
    move_counters(b.spheres[kLL], b.pool, 3, 1 - seat);
  }
  open_attack(*s, 0, kHead);
  act(*s, 1, pass());
  act(*s, 0, pass());  // hit and block; the round ends with both left legs bare
  REQUIRE(s->terminal());
  CHECK(s->outcome().draw());
  CHECK(s->outcome().reason.find("both boards") != std::string::npos);
}

TEST_CASE("Seed conversion also when the Dark player places Light counters in her center") {
  auto s = battle({}, dark(), {5, 1, 6, 6, 1, 1, 1}, "initiate");
  // Hand-built: three Light counters in the Dark center, the Light pool still holds 4.
  Board& d = board_mut(*s, 1);
  move_counters(d.spheres[kCenter], d.pool, 3, 1);
  move_counters(board_mut(*s, 0).spheres[kHL], d.spheres[kCenter], 3, 0);
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());  // a miss against a block: the Dark defender's reward
  act(*s, 1, Action::make(kRegain, 1));
  REQUIRE(s->match().buffer.of(0) == 1);
  act(*s, 1, place(kCenter, 1));  // the fourth Light counter in the center
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(s->outcome().reason.find("conversion") != std::string::npos);
}

TEST_CASE("Seed a Light kicker may take a red counter instead and turns Dark") {
  SetupChoice light;
  light.geas[kProtect] = 1;
  auto s = battle(light, dark(), {5, 1, 2, 2, 6, 6}, "initiate");
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, Action::make(kKick));
  act(*s, 0, pass());
  REQUIRE(s->match().phase == Phase::kKickTake);
  // No Light counter is on the Dark side, but the Dark pool holds red ones.
  CHECK_FALSE(is_legal(*s, 0, Action::make(kTake, 0)));
  CHECK(is_legal(*s, 0, Action::make(kTake, 1)));
  act(*s, 0, Action::make(kTake, 1));
  CHECK(s->match().players[0].side == kDark);
  CHECK(board(*s, 0).geas[kProtect].total() == 0);  // Light GEAS lost
  CHECK(board(*s, 1).pool.of(1) == 3);
  CHECK(s->match().buffer.of(1) == 1);
}

TEST_CASE("F24 a Light player who turns Dark loses her free Light GEAS") {
  SetupChoice light;
  light.free_geas = kProtect;
  auto s = battle(dark(), light, {5, 1, 6, 6, 1, 1, 2}, "diamedes");
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 1, pass());                           // no free Protect
  act(*s, 0, pass());                           // no free Choke
  act(*s, 1, pass());                           // F39: no gift, she rolls her DEF
  REQUIRE(s->match().phase == Phase::kReward);  // a miss against a block
  REQUIRE(s->match().players[1].free_geas == kProtect);
  act(*s, 1, Action::make(kRegain, 1));
  CHECK(s->match().players[1].side == kDark);
  CHECK(s->match().players[1].free_geas == -1);
}

TEST_CASE("F25 a Light kicker's counter comes from the Dark pool first, the center last") {
  const auto kick = [](ForceBattlesState& s) {
    open_attack(s, 0, kTorso);
    act(s, 1, pass());
    act(s, 0, Action::make(kKick));
    act(s, 0, pass());
    act(s, 0, Action::make(kTake, 0));
  };
  {
    auto s = battle({}, dark(), {5, 1, 2, 2, 6, 6}, "initiate");
    move_counters(board_mut(*s, 0).pool, board_mut(*s, 1).pool, 1, 0);
    move_counters(board_mut(*s, 0).pool, board_mut(*s, 1).spheres[kHL], 1, 0);
    kick(*s);
    CHECK(board(*s, 1).pool.of(0) == 0);
    CHECK(board(*s, 1).spheres[kHL].of(0) == 1);
    CHECK(s->match().buffer.of(0) == 1);
  }
  {
    auto s = battle({}, dark(), {5, 1, 2, 2, 6, 6}, "initiate");
    move_counters(board_mut(*s, 0).pool, board_mut(*s, 1).spheres[kCenter], 1, 0);
    move_counters(board_mut(*s, 0).pool, board_mut(*s, 1).spheres[kRL], 1, 0);
    kick(*s);
    CHECK(board(*s, 1).spheres[kRL].of(0) == 0);
    CHECK(board(*s, 1).spheres[kCenter].of(0) == 1);
    CHECK(s->match().buffer.of(0) == 1);
  }
}

TEST_CASE("F11 the other player's counters in a pile move first") {
  auto s = battle({}, dark(), {1, 5}, "initiate");
  // Hand-built: the Dark center holds 1 red and 2 Light counters.
  Board& d = board_mut(*s, 1);
  move_counters(d.spheres[kCenter], d.pool, 2, 1);
  move_counters(board_mut(*s, 0).pool, d.spheres[kCenter], 2, 0);
  open_attack(*s, 1, kHead);
  act(*s, 0, pass());
  act(*s, 1, pull(kCenter, 1));  // into the Dark player's right arm
  CHECK(board(*s, 1).targets[kRightArm].of(0) == 1);
  CHECK(board(*s, 1).spheres[kCenter].of(0) == 1);
  CHECK(board(*s, 1).spheres[kCenter].of(1) == 1);
}

TEST_CASE("Seed Dark against Dark: they take from each other and no gift is offered") {
  auto s = battle(dark(), dark(), {5, 1, 6, 6, 1, 1, 2}, "initiate");
  open_attack(*s, 0, kTorso);
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->match().phase == Phase::kReward);
  CHECK(is_legal(*s, 1, Action::make(kRegain, 1)));
  act(*s, 1, Action::make(kRegain, 1));
  act(*s, 1, Action::make(kPoolRest));
  CHECK(board(*s, 1).pool.of(0) == 2);
  CHECK(board(*s, 0).pool.total() == 2);
  CHECK(s->match().players[1].side == kDark);
  CHECK(s->match().round == 2);  // no gift decision between two Dark players
}
