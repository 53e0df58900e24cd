// The later rulings F35-F40 of ../shared/rulings/force-battles.md, one scenario or more each, and
// the Light player's take that turns her Dark.
#include "scenario.hpp"

using namespace fb_test;

namespace {

bool has_text(const std::string& events, const std::string& text) {
  return events.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("F35: a declared Choke drains only after a rolled hit") {
  auto s = battle(dark(with(with({}, kChoke, 1), kPull, 1)), {}, {5, 1}, "templar");
  to_battle_window(*s, kHead);
  REQUIRE(s->pending() == SeatMask::only(0));  // the defender has nothing and is passed over
  act(*s, 0, use(kChoke));
  REQUIRE(s->pending() == SeatMask::only(0));
  // Pull: both hit and block without a roll; the Choke has no rolled hit to follow.
  const std::string events = act_events(*s, 0, use(kPull));
  CHECK_FALSE(has_text(events, "for choke"));
  CHECK(has_text(events, "the Choke does nothing"));
  CHECK(sphere(*s, 1, kCenter) == 3);
  CHECK(board(*s, 1).pool.total() == 9);
  CHECK(board(*s, 0).geas[kChoke].total() == 0);  // its counter stays spent
  CHECK_FALSE(s->terminal());
  CHECK(s->match().round == 2);
}

TEST_CASE("F36: after the defender's Jump, Pull is not offered to the attacker") {
  auto s = battle(with(with({}, kPull, 1), kPush, 1), with({}, kJump, 1), {5, 1, 1, 1}, "templar");
  to_battle_window(*s, kTorso);
  REQUIRE(s->pending() == SeatMask::only(1));
  act(*s, 1, use(kJump));
  REQUIRE(s->pending() == SeatMask::only(0));
  CHECK(s->legal_actions(0) == std::vector<Action>{pass(), use(kPush)});
  CHECK(s->apply(0, use(kPull)).code == RefusalCode::kIllegal);
  const std::string events = act_events(*s, 0, pass());  // the defender rolls alone
  CHECK_FALSE(has_text(events, "for attack"));
  CHECK(has_text(events, "miss, blocked"));
  CHECK(board(*s, 0).geas[kPull].total() == 1);
}

TEST_CASE("F37: a first-round initiative tie goes to the higher ATT, who must attack") {
  SetupChoice strong;
  strong.att = 6;
  strong.def = 4;
  auto s = battle({}, strong, {3, 3});
  CHECK(s->match().initiative == 1);
  CHECK(s->match().attacker == 1);
  CHECK(s->match().phase == Phase::kTarget);
  CHECK(s->match().chooser == 1);  // the first round's winner still names the target
  CHECK_FALSE(is_legal(*s, 1, Action::make(kDecline)));
  CHECK(s->apply(1, Action::make(kDecline)).code == RefusalCode::kIllegal);
}

TEST_CASE("F38: Sight in the window before the rolls, the pulled counters go back") {
  auto s = battle(with({}, kSight, 1), {}, {5, 1, 1, 1, 1, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pull(kCenter, 1));
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->match().phase == Phase::kBattleGeas);
  REQUIRE(s->pending() == SeatMask::only(0));
  CHECK(is_legal(*s, 0, use(kSight)));
  act(*s, 0, use(kSight));
  CHECK(s->legal_actions(0).size() == kTargets);
  act(*s, 0, choose(kTorso));
  CHECK(s->match().target == kTorso);
  CHECK(sphere(*s, 1, kHL) == 3);
  CHECK(sphere(*s, 1, kCenter) == 3);
  CHECK(board(*s, 1).targets[kHead].total() == 0);
  // Both may pull again for the new target.
  REQUIRE(s->match().phase == Phase::kDefenderPull);
  act(*s, 1, pull(kLT, 3));
  act(*s, 1, pass());
  const std::string events = act_events(*s, 0, pass());
  CHECK(has_text(events, "Block Die 8"));  // DEF 5 + the 3 from LT
  CHECK(s->match().block);
}

TEST_CASE("F38: Mind Trick in the window before the rolls, Protect's counters follow the target") {
  auto s = battle({}, with(with({}, kMindTrick, 1), kProtect, 2), {5, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pass());  // no Mind Trick in the target step
  act(*s, 1, pull(kHR, 1));
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->pending() == SeatMask::only(1));
  act(*s, 1, use(kProtect, 2));
  REQUIRE(s->pending() == SeatMask::only(1));  // the attacker has nothing
  act(*s, 1, use(kMindTrick));
  act(*s, 1, choose(kLeftLeg));
  CHECK(s->match().target == kLeftLeg);
  CHECK(sphere(*s, 1, kHR) == 3);
  CHECK(board(*s, 1).targets[kHead].total() == 0);
  CHECK(board(*s, 1).targets[kLeftLeg].total() == 2);
  CHECK(s->match().phase == Phase::kDefenderPull);
}

TEST_CASE("F39: the gift replaces the Light defender's DEF roll and counts as her block") {
  auto s = battle(dark(), {}, {5, 1, 6, 6}, "templar");
  to_battle_window(*s, kTorso);
  REQUIRE(s->match().phase == Phase::kGift);
  CHECK(s->pending() == SeatMask::only(1));
  CHECK(s->match().rolls.size() == 2);  // only the initiative: nobody has rolled to fight yet
  const std::string events = act_events(*s, 1, Action::make(kGive, 7));  // from her ATT
  CHECK(has_text(events, "@0 rolled 6+6=12 for attack"));                // the attacker still rolls
  CHECK_FALSE(has_text(events, "for defence"));
  CHECK(s->match().block);
  CHECK_FALSE(s->match().hit);
  CHECK(board(*s, 0).spheres[kCenter].of(1) == 1);
  CHECK(board(*s, 1).att.total() == 4);
  // A miss against her block: the reward follows, and there is no second gift this round.
  REQUIRE(s->match().phase == Phase::kReward);
  CHECK(s->apply(1, Action::make(kGive, 7)).code == RefusalCode::kIllegal);
}

TEST_CASE("F39: a gift is refused where it must be") {
  SECTION("a Light defender facing a Light attacker") {
    auto s = battle({}, {}, {5, 1, 6, 6, 1, 1}, "templar");
    to_battle_window(*s, kTorso);
    CHECK(s->match().phase == Phase::kReward);
    CHECK(s->apply(1, Action::make(kGive, 7)).code == RefusalCode::kIllegal);
  }
  SECTION("a Dark defender facing a Light attacker") {
    auto s = battle({}, dark(), {5, 1, 6, 6, 1, 1}, "templar");
    to_battle_window(*s, kTorso);
    CHECK(s->match().phase == Phase::kReward);
    CHECK(s->apply(1, Action::make(kGive, 7)).code == RefusalCode::kIllegal);
  }
  SECTION("after Push, which ends the round without rolls (F36)") {
    auto s = battle(dark(with({}, kPush, 1)), {}, {5, 1}, "templar");
    to_battle_window(*s, kTorso);
    act(*s, 0, use(kPush));
    CHECK(s->match().phase == Phase::kStance);
    CHECK_FALSE(s->apply(1, Action::make(kGive, 7)).ok());
    CHECK(board(*s, 0).spheres[kCenter].of(1) == 0);
  }
}

TEST_CASE("F40: Lightning that empties every sphere around a target ends the battle at once") {
  auto s = battle(dark(with({}, kLightning, 4)), {}, {5, 1}, "templar");
  Board& b = board_mut(*s, 1);
  move_counters(b.spheres[kLL], b.pool, 2, 0);  // hand-built: LL, the left leg's sphere, holds 1
  to_battle_window(*s, kHead);
  REQUIRE(s->pending() == SeatMask::only(0));
  act(*s, 0, use(kLightning, 1, false, kLL));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(has_text(s->outcome().reason, "left leg"));
  CHECK(s->match().rolls.size() == 2);  // in the middle of the round: nobody rolled to fight
}

TEST_CASE("F40: a sphere the victim emptied by her own pull waits for the end of the round") {
  auto s = battle(dark(with({}, kLightning, 4)), {}, {5, 1, 1, 1, 1, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kLeftLeg));
  act(*s, 1, pull(kLL, 3));  // LL is empty by her own pull (F27)
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 0, use(kLightning, 1, false, kHL));  // the opponent drains a sphere elsewhere
  CHECK_FALSE(s->terminal());
  CHECK(sphere(*s, 1, kHL) == 2);
}

TEST_CASE("F40: a Choke that empties the last sphere around the head ends the battle at once") {
  // The center holds 3 and HL, HR nothing: a Choke of 5 would go on to the head; the battle
  // ends when the center is empty.
  auto s = battle(dark(with({}, kChoke, 1)), {}, {5, 1, 1, 1, 6, 6, 5}, "templar");
  Board& b = board_mut(*s, 1);
  move_counters(b.spheres[kHL], b.pool, 3, 0);
  move_counters(b.spheres[kHR], b.pool, 3, 0);
  to_battle_window(*s, kTorso);
  act(*s, 0, use(kChoke));
  act(*s, 1, pass());  // no gift: she rolls and fails to block
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(has_text(s->outcome().reason, "around @1's head is drained"));
}

TEST_CASE("F40: a kick's take that empties a leg's sphere ends the battle at once") {
  auto s = battle({}, dark(), {5, 1, 2, 2, 6, 6}, "initiate");
  // Hand-built: the Dark RL, the right leg's only sphere, holds one Light counter and nothing else.
  Board& d = board_mut(*s, 1);
  move_counters(d.spheres[kRL], d.pool, 3, 1);
  move_counters(board_mut(*s, 0).pool, d.spheres[kRL], 1, 0);
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, Action::make(kKick));
  act(*s, 0, pass());  // a successful kick: the Light kicker takes her counter back
  REQUIRE(s->match().phase == Phase::kKickTake);
  act(*s, 0, Action::make(kTake, 0));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(has_text(s->outcome().reason, "right leg"));
  CHECK(s->match().buffer.total() == 0);  // the taken counter waits in her pool, not placed
}

TEST_CASE("Seed the take that turns a Light player Dark says so in its label") {
  auto s = battle(dark(), {}, {5, 1, 6, 6, 1, 1}, "templar");
  to_battle_window(*s, kTorso);
  act(*s, 1, pass());  // no gift
  REQUIRE(s->match().phase == Phase::kReward);
  CHECK(s->action_label(1, Action::make(kRegain, 1)) ==
        "take from the opponent's pool and turn to the Dark Side");
  CHECK(s->action_label(0, Action::make(kRegain, 1)) == "take from the opponent's pool");
}

TEST_CASE("Seed Light GEAS are Light only: a player turned Dark cannot use them") {
  SetupChoice light = with({}, kProtect, 2);
  auto s = battle(dark(with({}, kLightning, 1)), light, {5, 1, 6, 6, 1, 1, 2, 5, 1, 4}, "templar");
  to_battle_window(*s, kTorso);
  act(*s, 1, pass());  // no Protect
  act(*s, 0, pass());  // no Lightning
  act(*s, 1, pass());  // no gift: a miss against her block
  act(*s, 1, Action::make(kRegain, 1));
  REQUIRE(s->match().players[1].side == kDark);
  CHECK(board(*s, 1).geas[kProtect].total() == 0);  // "losing all Light Side GEAS"
  act(*s, 1, Action::make(kPoolRest));
  // Hand-built: a counter back in her Protect slot; as a Dark player she still cannot use it.
  move_counters(board_mut(*s, 1).pool, board_mut(*s, 1).geas[kProtect], 1, 1);
  REQUIRE(s->match().round == 2);
  act(*s, 0, Action::make(kAttack));
  REQUIRE(s->match().target == kTorso);
  act(*s, 0, pass());
  act(*s, 1, pass());
  act(*s, 0, pass());
  // The window opens with the defender, who has nothing she may use: the attacker is asked.
  CHECK(s->match().phase == Phase::kBattleGeas);
  CHECK(s->pending() == SeatMask::only(0));
}

TEST_CASE("F39: the gift may come from the target she pulled counters into") {
  auto s = battle(dark(), {}, {5, 1, 6, 6}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pass());
  act(*s, 0, pass());
  REQUIRE(s->match().phase == Phase::kGift);
  REQUIRE(board(*s, 1).targets[kHead].of(1) == 2);
  const Action from_head = Action::make(kGive, uint8_t(kSpheres + 2 + kGeasCount + kHead));
  CHECK(is_legal(*s, 1, from_head));
  act(*s, 1, from_head);
  CHECK(board(*s, 0).spheres[kCenter].of(1) == 1);
  CHECK(s->match().block);  // "considered a successful Defense roll"
}

TEST_CASE("F41: at the round limit each player counts her own colour outside both pools") {
  auto s = battle({}, dark(), {5, 1, 1, 1, 1, 1}, "learner", 1);
  // Hand-built: one Light counter given to the Dark center, one Dark counter in the Dark pool.
  // By board the Dark player has 31 to 30; by colour the Light player has 31 to 30.
  move_counters(board_mut(*s, 0).spheres[kHL], board_mut(*s, 1).spheres[kCenter], 1, 0);
  move_counters(board_mut(*s, 1).spheres[kHR], board_mut(*s, 1).pool, 1, 1);
  REQUIRE(board(*s, 0).on_board() == 30);
  REQUIRE(board(*s, 1).on_board() == 31);
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pass());
  while (!s->terminal() && !s->pending().empty()) {
    const Seat seat = s->pending().first();
    act(*s, seat, s->legal_actions(seat).front());  // pass every reward and follow-up
  }
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(0));
  CHECK(s->outcome().scores == std::vector<int32_t>{31, 30});
  CHECK(has_text(s->outcome().reason, "(31 to 30)"));
}
