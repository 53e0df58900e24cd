// The thirteen FORCE GEAS: cost, timing, side and what each does.
#include "scenario.hpp"

using namespace fb_test;

TEST_CASE("Hide: the opponent may use no GEAS but Speed") {
  SetupChoice hider = with(with({}, kHide, 1), kPush, 1);
  SetupChoice other = with(with({}, kSpeed, 1), kPush, 1);
  auto s = battle(hider, other, {5, 1}, "templar");
  REQUIRE(s->match().phase == Phase::kOpening);
  act(*s, 0, use(kHide));
  CHECK(board(*s, 0).geas[kHide].total() == 0);
  CHECK(board(*s, 0).pool.total() == 9 - 2 + 1);
  CHECK(s->legal_actions(1) == std::vector<Action>{pass(), use(kSpeed)});
  act(*s, 1, pass());
  to_battle_window(*s, kHead);
  // Seat 1, the defender, speaks first but has nothing usable: the window is at seat 0.
  CHECK(s->match().phase == Phase::kBattleGeas);
  CHECK(s->pending() == SeatMask::only(0));
  CHECK(is_legal(*s, 0, use(kPush)));
}

TEST_CASE("Speed wins initiative without a roll") {
  auto s = battle({}, with({}, kSpeed, 1), {}, "templar");
  act(*s, 1, use(kSpeed));
  CHECK(s->match().initiative == 1);
  CHECK(s->match().rolls.empty());
}

TEST_CASE("Speed used by both: initiative is rolled as usual") {
  auto s = battle(with({}, kSpeed, 1), with({}, kSpeed, 1), {2, 4}, "templar");
  act(*s, 0, use(kSpeed));
  act(*s, 1, use(kSpeed));
  CHECK(s->match().initiative == 1);
  CHECK(s->match().rolls.size() == 2);
}

TEST_CASE("Jump: the attacker misses without rolling and a block gains nothing") {
  auto s = battle({}, with({}, kJump, 1), {5, 1, 1, 1}, "templar");
  to_battle_window(*s, kTorso);
  const std::string events = act_events(*s, 1, use(kJump));
  CHECK(events.find("for attack") == std::string::npos);
  CHECK(events.find("@1 rolled 1+1=2 for defence") != std::string::npos);
  CHECK(events.find("miss, blocked") != std::string::npos);
  CHECK(s->match().round == 2);  // no reward decision was offered
}

TEST_CASE("Mind Trick: the defender names the target") {
  auto s = battle({}, with({}, kMindTrick, 1), {5, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  REQUIRE(s->pending() == SeatMask::only(1));
  act(*s, 1, use(kMindTrick));
  act(*s, 1, choose(kLeftLeg));
  CHECK(s->match().target == kLeftLeg);
  CHECK(s->match().phase == Phase::kDefenderPull);
}

TEST_CASE("Sight lets the attacker name the target without paying moves") {
  auto s = battle(with({}, kSight, 1), {}, {1, 5, 4}, "templar");
  act(*s, 1, Action::make(kDecline));  // seat 0 must attack and rolls the torso
  REQUIRE(s->match().target == kTorso);
  act(*s, 0, use(kSight));
  act(*s, 0, choose(kHead));
  CHECK(s->match().target == kHead);
  CHECK(board(*s, 0).sphere_total() == 21);
}

TEST_CASE("Sight against Mind Trick: each cancels the other, the last one decides") {
  auto s = battle(with({}, kSight, 1), with({}, kMindTrick, 1), {5, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, use(kMindTrick));
  act(*s, 1, choose(kLeftLeg));
  // After Mind Trick the attacker may answer only with Sight (F17), not with paid moves.
  CHECK(s->legal_actions(0) == std::vector<Action>{pass(), use(kSight)});
  act(*s, 0, use(kSight));
  act(*s, 0, choose(kHead));
  CHECK(s->match().target == kHead);
  CHECK(s->match().phase == Phase::kDefenderPull);
}

TEST_CASE("Mind Trick against Sight: the defender answers the attacker's Sight") {
  auto s = battle(with({}, kSight, 1), with({}, kMindTrick, 1), {1, 5, 4}, "templar");
  act(*s, 1, Action::make(kDecline));
  act(*s, 0, use(kSight));
  act(*s, 0, choose(kHead));
  act(*s, 1, use(kMindTrick));
  act(*s, 1, choose(kRightLeg));
  CHECK(s->match().target == kRightLeg);  // Sight is spent: nothing answers Mind Trick
  CHECK(s->match().phase == Phase::kDefenderPull);
}

TEST_CASE("Push: both miss and the round ends without rolls") {
  auto s = battle(with({}, kPush, 1), {}, {5, 1}, "templar");
  to_battle_window(*s, kHead);
  act(*s, 0, use(kPush));
  CHECK_FALSE(s->match().hit);
  CHECK_FALSE(s->match().block);
  CHECK(s->match().rolls.size() == 2);
  CHECK(s->match().phase == Phase::kStance);  // a double botch (ruling F20)
}

TEST_CASE("Pull: only the attacker may pull, both hit and block and the round ends") {
  auto s = battle(with({}, kPull, 1), with({}, kPull, 1), {5, 1}, "templar");
  to_battle_window(*s, kHead);
  CHECK(s->pending() == SeatMask::only(0));  // the defender's Pull is not usable
  const std::string events = act_events(*s, 0, use(kPull));
  CHECK(events.find("for attack") == std::string::npos);
  CHECK(events.find("for defence") == std::string::npos);
  CHECK(events.find("hit, blocked") != std::string::npos);
  CHECK(s->match().round == 2);
}

TEST_CASE("Lightning drains the opponent's spheres counter by counter and skips on") {
  auto s = battle(dark(with({}, kLightning, 4)), {}, {5, 1}, "templar");
  to_battle_window(*s, kHead);
  CHECK_FALSE(is_legal(*s, 0, use(kLightning, 5, false, kCenter)));  // F19: 4 per throw
  act(*s, 0, use(kLightning, 2, false, kCenter));
  CHECK(sphere(*s, 1, kCenter) == 1);
  CHECK(board(*s, 1).pool.total() == 9 + 2);
  CHECK(board(*s, 0).geas[kLightning].total() == 2);
  act(*s, 0, use(kLightning, 2, false, kCenter));  // 1 from the center, then 1 from LT
  CHECK(sphere(*s, 1, kCenter) == 0);
  CHECK(sphere(*s, 1, kLT) == 2);
}

TEST_CASE("Lightning Absorb, Heal and Protect are Light only") {
  auto s = create("templar");
  act(*s, 0, Action::make(kSetupSide, kDark));
  act(*s, 0, Action::make(kSetupHand, kRight));
  act(*s, 0, Action::make(kSetupColour, kRed));
  for (int i = 0; i < kSpheres; ++i) act(*s, 0, Action::make(kSetupSphere, uint8_t(i), 3));
  act(*s, 0, Action::make(kSetupAtt, 5));
  act(*s, 0, Action::make(kSetupDef, 5));
  for (int g = 0; g < kLightningAbsorb; ++g) act(*s, 0, Action::make(kSetupGeas, uint8_t(g), 0));
  CHECK(s->legal_actions(0) == std::vector<Action>{Action::make(kSetupGeas, kLightningAbsorb, 0)});
  CHECK_FALSE(geas_allowed(kDark, kHeal));
  CHECK_FALSE(geas_allowed(kDark, kProtect));
  CHECK_FALSE(geas_allowed(kLight, kLightning));
  CHECK_FALSE(geas_allowed(kLight, kChoke));
  CHECK_FALSE(geas_allowed(kLight, kRage));
}

TEST_CASE("Lightning Absorb alleviates a strike and redirects it") {
  auto s = battle(dark(with({}, kLightning, 4)), with({}, kLightningAbsorb, 2), {5, 1}, "templar");
  to_battle_window(*s, kHead);
  act(*s, 0, use(kLightning, 3, false, kCenter));
  REQUIRE(s->match().phase == Phase::kLightningAnswer);
  act(*s, 1, use(kLightningAbsorb, 1));
  CHECK(s->match().strike == 2);
  act(*s, 1, Action::make(kRedirect, kRL, 0));
  CHECK(sphere(*s, 1, kCenter) == 3);
  CHECK(sphere(*s, 1, kRL) == 1);
  CHECK(board(*s, 1).geas[kLightningAbsorb].total() == 0);
}

TEST_CASE("Heal sets every sphere to 3 instead of the regain") {
  SetupChoice healer = with({}, kHeal, 1);
  healer.spheres = {4, 4, 4, 3, 2, 2, 2};
  auto s = battle({}, healer, {5, 1, 6, 6, 1, 1}, "templar");
  to_battle_window(*s, kTorso);
  REQUIRE(s->match().phase == Phase::kReward);
  act(*s, 1, use(kHeal));
  for (int sp = 0; sp < kSpheres; ++sp) CHECK(sphere(*s, 1, sp) == 3);
  CHECK(board(*s, 1).pool.total() == 9);  // 8 + the Heal counter, +3 -3
  CHECK(s->match().round == 2);
}

TEST_CASE("Heal does not heal with its own counter and does with what the pool has") {
  SetupChoice healer = with({}, kHeal, 1);
  healer.spheres = {4, 4, 4, 3, 1, 1, 4};
  auto s = battle({}, healer, {5, 1, 6, 6, 1, 1}, "templar");
  Board& b = board_mut(*s, 1);
  b.att.by_owner[1] = static_cast<int16_t>(b.att.by_owner[1] + b.pool.by_owner[1]);
  b.pool.by_owner[1] = 0;  // hand-built: an empty pool and one counter less in the spheres
  move_counters(b.spheres[kLL], b.att, 1, 0);
  to_battle_window(*s, kTorso);
  act(*s, 1, use(kHeal));
  // The 4 above 3 (HL, HR, center, RL) fill RT, then LL as far as they go; the Heal counter,
  // already in the pool by then, is not used.
  CHECK(sphere(*s, 1, kRT) == 3);
  CHECK(sphere(*s, 1, kLL) == 2);
  CHECK(board(*s, 1).pool.total() == 1);  // only the Heal counter
}

TEST_CASE("Heal is offered only after a miss against a successful block") {
  auto s = battle({}, with({}, kHeal, 1), {5, 1, 1, 1, 1, 1}, "templar");
  to_battle_window(*s, kTorso);
  CHECK(s->match().round == 2);  // hit and block: no reward, no Heal
  CHECK(board(*s, 1).geas[kHeal].total() == 1);
}

TEST_CASE("Choke drains the center sphere first, then the head") {
  auto s = battle(dark(with({}, kChoke, 1)), {}, {5, 1, 1, 1, 6, 6, 4}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 2));
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 0, use(kChoke));
  act(*s, 1, pass());  // F39: no gift, she rolls her DEF
  CHECK(sphere(*s, 1, kCenter) == 0);
  CHECK(s->match().buffer.total() == 1);  // the head's last counter is going back
  CHECK(board(*s, 1).pool.total() == 9 + 4);
  CHECK_FALSE(s->terminal());
}

TEST_CASE("Choke past the center and the head maims the head") {
  auto s = battle(dark(with({}, kChoke, 1)), {}, {5, 1, 1, 1, 6, 6, 6}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 0, use(kChoke));
  act(*s, 1, pass());  // F39: no gift, she rolls her DEF
  REQUIRE(s->terminal());
  CHECK(s->outcome().reason.find("head is maimed") != std::string::npos);
}

TEST_CASE("Choke against a successful block still drains, then the defender may change stance") {
  auto s = battle(dark(with({}, kChoke, 1)), {}, {5, 1, 1, 1, 1, 1, 2}, "templar");
  to_battle_window(*s, kTorso);
  act(*s, 0, use(kChoke));
  act(*s, 1, pass());  // F39: no gift, she rolls her DEF
  CHECK(sphere(*s, 1, kCenter) == 1);
  CHECK(s->match().phase == Phase::kStance);
  CHECK(s->pending() == SeatMask::only(1));
}

TEST_CASE("Protect adds DEF per counter and keeps a Block Die of 11 or more") {
  auto s = battle({}, with({}, kProtect, 3), {5, 1, 6, 6, 6, 5}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 3));
  act(*s, 1, pull(kHR, 3));
  act(*s, 1, pass());
  act(*s, 0, pass());
  act(*s, 1, use(kProtect, 1));  // 5 + 6 + 1 = 12: a roll of 11 blocks
  CHECK(s->match().block);
  // Afterwards 1 counter goes to the pool and 6 may go to any sphere.
  CHECK(board(*s, 1).pool.total() == 9 - 3 + 1);
  REQUIRE(s->match().phase == Phase::kPlacement);
  CHECK(s->match().buffer.total() == 6);
  CHECK(is_legal(*s, 1, place(kRL, 1)));
}

TEST_CASE("11-or-more without Protect the same Block Die of 12 fails") {
  auto s = battle({}, {}, {5, 1, 6, 6, 6, 5}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kHead));
  act(*s, 1, pull(kHL, 3));
  act(*s, 1, pull(kHR, 3));
  act(*s, 1, pull(kCenter, 1));
  act(*s, 1, pass());
  act(*s, 0, pass());
  CHECK_FALSE(s->match().block);
}

TEST_CASE("Rage adds ATT per counter and keeps a Hit Die of 11 or more") {
  auto s = battle(dark(with({}, kRage, 3)), {}, {5, 1, 6, 6, 1, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pull(kHR, 3));
  act(*s, 0, pull(kRT, 3));
  act(*s, 0, pass());
  act(*s, 0, use(kRage, 1));  // 5 + 6 + 1 = 12: a roll of 12 hits
  act(*s, 1, pass());         // F39: no gift, she rolls her DEF
  CHECK(s->match().hit);
  // Afterwards 2 counters go to the pool, the other 5 to any sphere.
  CHECK(board(*s, 0).pool.total() == 9 - 3 + 2);
}

TEST_CASE("11-or-more without Rage the same Hit Die of 12 misses") {
  auto s = battle(dark(), {}, {5, 1, 6, 6, 1, 1}, "templar");
  act(*s, 0, Action::make(kAttack));
  act(*s, 0, choose(kTorso));
  act(*s, 1, pass());
  act(*s, 0, pull(kHR, 3));
  act(*s, 0, pull(kRT, 3));
  act(*s, 0, pull(kCenter, 1));
  act(*s, 0, pass());
  CHECK_FALSE(s->match().hit);
}

TEST_CASE("F13 each GEAS once per round, Lightning counter by counter") {
  auto s = battle(dark(with({}, kLightning, 4)), with({}, kProtect, 3), {5, 1}, "templar");
  to_battle_window(*s, kHead);
  act(*s, 1, use(kProtect, 1));
  act(*s, 0, use(kLightning, 1, false, kLT));
  // Seat 1 still holds 2 Protect counters but has used Protect: she is passed over (F28).
  CHECK(board(*s, 1).geas[kProtect].total() == 2);
  REQUIRE(s->pending() == SeatMask::only(0));
  CHECK(is_legal(*s, 0, use(kLightning, 1, false, kLT)));  // Lightning again
  act(*s, 0, use(kLightning, 1, false, kLT));
  CHECK(sphere(*s, 1, kLT) == 1);
  CHECK(board(*s, 1).geas[kProtect].total() == 2);
}

TEST_CASE("Seed Choke is Dark only and spends one counter a round") {
  CHECK_FALSE(geas_allowed(kLight, kChoke));
  auto s = battle(dark(with(with({}, kChoke, 3), kLightning, 1)), {}, {5, 1}, "templar");
  to_battle_window(*s, kHead);
  CHECK(is_legal(*s, 0, use(kChoke, 1)));
  CHECK_FALSE(is_legal(*s, 0, use(kChoke, 2)));
  CHECK_FALSE(is_legal(*s, 0, use(kChoke, 3)));
  act(*s, 0, use(kChoke, 1));
  CHECK(board(*s, 0).geas[kChoke].total() == 2);
  CHECK(s->match().choked);
  // The attacker is asked again (she still holds Lightning): a second Choke is not offered.
  REQUIRE(s->pending() == SeatMask::only(0));
  CHECK(is_legal(*s, 0, use(kLightning, 1, false, kHL)));
  CHECK_FALSE(is_legal(*s, 0, use(kChoke, 1)));
  CHECK(s->apply(0, use(kChoke, 1)).code == RefusalCode::kIllegal);
}

TEST_CASE("F20 Heal is not offered after a double botch or a Jump") {
  SetupChoice healer = with(with({}, kHeal, 1), kJump, 1);
  {
    auto s = battle({}, healer, {5, 1, 6, 6, 6, 6}, "templar");
    to_battle_window(*s, kTorso);
    act(*s, 1, pass());  // no Jump: both botch
    REQUIRE(s->match().phase == Phase::kStance);
    act(*s, 0, Action::make(kStanceKeep));
    REQUIRE(s->pending() == SeatMask::only(1));
    CHECK_FALSE(is_legal(*s, 1, use(kHeal)));
    act(*s, 1, Action::make(kStanceKeep));
    CHECK(s->match().round == 2);
    CHECK(board(*s, 1).geas[kHeal].total() == 1);
  }
  {
    auto s = battle({}, healer, {5, 1, 1, 1}, "templar");
    to_battle_window(*s, kTorso);
    act(*s, 1, use(kJump));  // the attack misses, the block succeeds
    CHECK(s->match().round == 2);
    CHECK(board(*s, 1).geas[kHeal].total() == 1);
  }
}
