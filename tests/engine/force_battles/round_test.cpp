// The round (F4): initiative, attack or decline, the target, pulls, the rolls and 11-or-more.
#include "scenario.hpp"

using namespace fb_test;

namespace {

// Round 1 with seat 0 winning initiative and naming `target`; both players pass the pulls.
void attack_and_pass_pulls(ForceBattlesState& s, int target) {
  act(s, 0, Action::make(kAttack));
  act(s, 0, choose(target));
  act(s, 1, pass());
  act(s, 0, pass());
}

}  // namespace

TEST_CASE("F4.2 the higher initiative D6 wins") {
  auto s = battle({}, {}, {2, 5});
  CHECK(s->match().phase == Phase::kAttackChoice);
  CHECK(s->match().initiative == 1);
  CHECK(s->pending() == SeatMask::only(1));
}

TEST_CASE("F4.2 a first-round tie with equal ATT is rolled again") {
  auto s = battle({}, {}, {3, 3, 1, 4});
  CHECK(s->match().initiative == 1);
  CHECK(s->forced_dice_left() == 0);
  CHECK(s->match().rolls.size() == 4);  // every roll is kept for the view (F7)
}

TEST_CASE("F4.2 a later tie goes to the last defender, who must attack") {
  // Round 1: seat 0 attacks, hit and block; round 2 ties and seat 1, the defender, attacks
  // (seed: "the last person to DEFEND will ATTACK"): no decline, the target is rolled (1 head).
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1, 4, 4, 1});
  attack_and_pass_pulls(*s, kHead);
  CHECK(s->match().round == 2);
  CHECK(s->match().initiative == 1);
  CHECK(s->match().attacker == 1);
  CHECK(s->match().phase == Phase::kTarget);
  CHECK(s->match().target == kHead);
  CHECK_FALSE(is_legal(*s, 1, Action::make(kDecline)));
  CHECK(s->forced_dice_left() == 0);
}

TEST_CASE("F4.2 a later initiative won on the dice may still be declined") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1, 2, 6});
  attack_and_pass_pulls(*s, kHead);
  REQUIRE(s->match().round == 2);
  CHECK(s->match().phase == Phase::kAttackChoice);
  CHECK(is_legal(*s, 1, Action::make(kDecline)));
}

TEST_CASE("F15 the opening window starts with the last defender") {
  const SetupChoice hider = [] {
    SetupChoice c;
    c.geas[kHide] = 1;
    c.geas[kSpeed] = 1;
    return c;
  }();
  auto s = battle(hider, hider, {5, 1, 1, 1, 1, 1}, "templar");
  CHECK(s->pending() == SeatMask::only(0));  // the first round: seat 0
  act(*s, 0, pass());
  act(*s, 1, pass());
  attack_and_pass_pulls(*s, kHead);  // seat 1 defends; hit and block
  REQUIRE(s->match().round == 2);
  CHECK(s->match().phase == Phase::kOpening);
  CHECK(s->pending() == SeatMask::only(1));
}

TEST_CASE("F28 a player with nothing but Pass is not asked") {
  {
    auto s = battle({}, {}, {5, 1});
    CHECK(s->match().phase == Phase::kAttackChoice);  // no empty opening decisions
  }
  SetupChoice hider;
  hider.geas[kHide] = 1;
  auto s = battle({}, hider, {5, 1}, "templar");
  REQUIRE(s->match().phase == Phase::kOpening);
  CHECK(s->pending() == SeatMask::only(1));  // seat 0 speaks first but has nothing
  act(*s, 1, pass());
  CHECK(s->match().phase == Phase::kAttackChoice);  // seat 0 is not asked again
}

TEST_CASE("F21 without a host limit the board count decides after the hard cap") {
  for (const int round : {kRoundCap - 1, int{kRoundCap}}) {
    auto s = battle({}, {}, {5, 1, 1, 1, 1, 1});
    move_counters(board_mut(*s, 1).spheres[kHL], board_mut(*s, 1).pool, 1, 0);
    act(*s, 0, Action::make(kAttack));
    act(*s, 0, choose(kHead));
    s->match_for_test().round = static_cast<int16_t>(round);
    act(*s, 1, pass());
    act(*s, 0, pass());  // hit and block: the round ends
    if (round < kRoundCap) {
      CHECK_FALSE(s->terminal());
    } else {
      REQUIRE(s->terminal());
      CHECK(s->outcome().winners == SeatMask::only(0));
      CHECK(s->outcome().reason.find("round limit") != std::string::npos);
    }
  }
}

TEST_CASE("F27 a pull that empties a sphere ends nothing, the board is checked at round end") {
  auto s = battle({}, {}, {5, 1, 1, 1, 1, 1});
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kLeftLeg));
  act(*s, 1, pull(kLL, 3));  // LL, the left leg's only sphere, is empty now
  CHECK(sphere(*s, 1, kLL) == 0);
  CHECK_FALSE(s->terminal());
  act(*s, 1, pass());
  CHECK_FALSE(s->terminal());
  CHECK(s->match().phase == Phase::kAttackerPull);
  act(*s, 0, pass());  // hit and block; the counters go back to LL before the check
  CHECK_FALSE(s->terminal());
  CHECK(sphere(*s, 1, kLL) == 3);
  CHECK(s->match().round == 2);
}

TEST_CASE("F32 Speed is not offered while a kick holds the next initiative") {
  SetupChoice fast;
  fast.geas[kSpeed] = 1;
  // Seat 0 kicks seat 1 successfully (hit 2+2, block 6+6) and keeps her stance.
  auto s = battle(fast, fast, {5, 1, 2, 2, 6, 6}, "templar");
  act(*s, 0, pass());  // round 1: neither uses Speed
  act(*s, 1, pass());
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, Action::make(kKick));
  act(*s, 0, pass());
  REQUIRE(s->match().kick_initiative == 0);
  REQUIRE(s->match().phase == Phase::kStance);
  act(*s, 0, Action::make(kStanceKeep));
  // Round 2: neither is offered Speed, so nobody is asked and the kicker has the initiative.
  REQUIRE(s->match().round == 2);
  CHECK(s->match().phase == Phase::kAttackChoice);
  CHECK(s->match().initiative == 0);
  CHECK(board(*s, 0).geas[kSpeed].total() == 1);
  CHECK(board(*s, 1).geas[kSpeed].total() == 1);
}

TEST_CASE("F4.3 a declined attack passes to the other player, who must attack") {
  auto s = battle({}, {}, {5, 1, 2});
  act(*s, 0, Action::make(kDecline));
  CHECK(s->match().attacker == 1);
  // Ruling F16: the forced attacker rolls the target; Light right-handed: 2 = left arm.
  CHECK(s->match().target == kLeftArm);
  CHECK(s->match().chooser == -1);
}

TEST_CASE("Seed the target roll is read by side and handedness") {
  CHECK(target_for_roll(kLight, kRight, 2) == kLeftArm);
  CHECK(target_for_roll(kDark, kLeft, 6) == kRightLeg);
  CHECK(target_for_roll(kDark, kRight, 2) == kRightArm);
  CHECK(target_for_roll(kLight, kLeft, 5) == kRightLeg);
  CHECK(target_for_roll(kLight, kLeft, 1) == kHead);
  CHECK(target_for_roll(kDark, kRight, 4) == kTorso);
  SetupChoice left_dark = dark();
  left_dark.hand = kRight;
  auto s = battle({}, left_dark, {5, 1, 3});
  act(*s, 0, Action::make(kDecline));
  CHECK(s->match().target == kLeftArm);  // Dark right-handed: 3 = left arm
}

TEST_CASE("Seed the first round's initiative winner chooses where to attack") {
  auto s = battle({}, {}, {6, 2});
  act(*s, 0, Action::make(kAttack));
  CHECK(s->match().chooser == 0);
  CHECK(s->legal_actions(0).size() == kTargets);
  act(*s, 0, choose(kRightLeg));
  CHECK(s->match().target == kRightLeg);
  CHECK(s->match().phase == Phase::kDefenderPull);
}

TEST_CASE("F1 moving the attack costs 1 from the conjoining sphere into the pool") {
  auto s = battle({}, {}, {5, 1, 2});
  act(*s, 0, Action::make(kDecline));  // seat 1 attacks the left arm
  REQUIRE(s->match().target == kLeftArm);
  CHECK_FALSE(is_legal(*s, 1, Action::make(kMoveTarget, kLL, kTorso)));  // LL is not by the arm
  CHECK_FALSE(is_legal(*s, 1, Action::make(kMoveTarget, kHL, kTorso)));  // HL does not join them
  act(*s, 1, Action::make(kMoveTarget, kHL, kHead));
  CHECK(s->match().target == kHead);
  CHECK(sphere(*s, 1, kHL) == 2);
  CHECK(board(*s, 1).pool.total() == 1);
  act(*s, 1, Action::make(kMoveTarget, kHR, kRightArm));
  CHECK(s->match().target == kRightArm);
  CHECK(sphere(*s, 1, kHR) == 2);
  CHECK(board(*s, 1).pool.total() == 2);
}

TEST_CASE("F1 the center sphere joins only head to torso and left arm to right arm") {
  auto s = battle({}, {}, {5, 1, 2});
  act(*s, 0, Action::make(kDecline));  // seat 1 attacks the left arm
  REQUIRE(s->match().target == kLeftArm);
  // The center touches the head and the torso too, but lies between neither and the left arm.
  CHECK_FALSE(is_legal(*s, 1, Action::make(kMoveTarget, kCenter, kHead)));
  CHECK_FALSE(is_legal(*s, 1, Action::make(kMoveTarget, kCenter, kTorso)));
  CHECK(is_legal(*s, 1, Action::make(kMoveTarget, kHL, kHead)));
  CHECK(is_legal(*s, 1, Action::make(kMoveTarget, kLT, kTorso)));
  act(*s, 1, Action::make(kMoveTarget, kCenter, kRightArm));
  CHECK(sphere(*s, 1, kCenter) == 2);
  // From the right arm the center leads only back to the left arm.
  CHECK_FALSE(is_legal(*s, 1, Action::make(kMoveTarget, kCenter, kHead)));
  CHECK(is_legal(*s, 1, Action::make(kMoveTarget, kCenter, kLeftArm)));
  CHECK(lies_between(kCenter, kHead, kTorso));
  CHECK(lies_between(kCenter, kTorso, kHead));
  CHECK_FALSE(lies_between(kCenter, kHead, kRightArm));
  CHECK_FALSE(lies_between(kCenter, kLeftArm, kTorso));
  CHECK(lies_between(kLL, kTorso, kLeftLeg));
  CHECK_FALSE(lies_between(kLL, kTorso, kTorso));
}

TEST_CASE("F4.5 the Block Die is DEF plus the counters pulled into the target") {
  // DEF 5 + 3 pulled = 8: a defence roll of 8 blocks, the attack roll of 12 misses.
  auto s = battle({}, {}, {5, 1, 6, 6, 4, 4});
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  CHECK_FALSE(is_legal(*s, 1, pull(kLT, 1)));  // LT is not next to the head
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pull(kCenter, 1));
  CHECK(board(*s, 1).targets[kHead].total() == 3);
  act(*s, 1, pass());
  act(*s, 0, pass());
  CHECK(s->match().block);
  CHECK_FALSE(s->match().hit);
}

TEST_CASE("F4.6 the Hit Die is ATT plus the counters pulled into the hand target") {
  // ATT 5 + 4 from spheres next to the right arm = 9: an attack roll of 9 hits.
  auto s = battle({}, {}, {5, 1, 4, 5, 1, 1});
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  CHECK_FALSE(is_legal(*s, 0, pull(kHL, 1)));  // HL is not next to the right arm
  act(*s, 0, pull(kHR, 2));
  act(*s, 0, pull(kRT, 2));
  CHECK(board(*s, 0).targets[kRightArm].total() == 4);
  act(*s, 0, pass());
  CHECK(s->match().hit);
  CHECK(s->match().block);
}

TEST_CASE("11-or-more a Hit Die of 11 misses even on the lowest roll") {
  auto s = battle({}, {}, {5, 1, 1, 1, 6, 6});
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pull(kHR, 3));
  act(*s, 0, pull(kRT, 3));  // 5 + 6 = 11
  act(*s, 0, pass());
  CHECK_FALSE(s->match().hit);
  CHECK_FALSE(s->match().block);
}

TEST_CASE("11-or-more a Block Die of 11 fails even on the lowest roll") {
  auto s = battle({}, {}, {5, 1, 6, 6, 1, 1});
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 3));
  act(*s, 1, pull(kHR, 3));  // 5 + 6 = 11
  act(*s, 1, pass());
  act(*s, 0, pass());
  CHECK_FALSE(s->match().block);
}

TEST_CASE("11-or-more a die of 10 still succeeds at 10") {
  auto s = battle({}, {}, {5, 1, 5, 5, 6, 6});
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pull(kHR, 3));
  act(*s, 0, pull(kRT, 2));  // 10
  act(*s, 0, pass());
  CHECK(s->match().hit);
}

TEST_CASE("F7 every roll is shown to the players and spectators") {
  auto s = battle({}, {}, {5, 1});
  std::vector<Event> events;
  s->force_dice({2, 3, 4, 4});
  REQUIRE(s->apply(0, Action::make(kAttack), &events).ok());
  REQUIRE(s->apply(0, choose(kHead), &events).ok());
  REQUIRE(s->apply(1, pass(), &events).ok());
  REQUIRE(s->apply(0, pass(), &events).ok());
  bool attack_seen = false, defence_seen = false;
  for (const Event& e : events) {
    const auto text = e.text_for(Viewer::spectator());
    REQUIRE(text.has_value());
    attack_seen = attack_seen || text->find("@0 rolled 2+3=5 for attack") != std::string::npos;
    defence_seen = defence_seen || text->find("@1 rolled 4+4=8 for defence") != std::string::npos;
  }
  CHECK(attack_seen);
  CHECK(defence_seen);
  CHECK(s->view(Viewer::spectator()) == s->view(Viewer::of_seat(0)));
}

TEST_CASE("Illegal and malformed actions are refused with a reason and change nothing") {
  auto s = battle({}, {}, {5, 1});
  const std::string before = s->serialize();
  auto r = s->apply(1, Action::make(kAttack));
  CHECK(r.code == RefusalCode::kNotYourDecision);
  r = s->apply(0, Action::make(200));
  CHECK(r.code == RefusalCode::kMalformed);
  CHECK_FALSE(r.reason.empty());
  r = s->apply(0, pull(kHL, 1));
  CHECK(r.code == RefusalCode::kIllegal);
  CHECK(r.reason.find("pull 1 from HL") != std::string::npos);
  CHECK(s->serialize() == before);
}
