// Setup rules: competency budgets (F2), sides and colours, ATT/DEF, GEAS slots, secrecy (F8).
#include "scenario.hpp"

using namespace fb_test;

namespace {

std::vector<int> sphere_options(const ForceBattlesState& s, Seat seat) {
  std::vector<int> counts;
  for (const Action& a : s.legal_actions(seat)) {
    if (a.kind == kSetupSphere) counts.push_back(a.arg(1));
  }
  return counts;
}

int pool_after_spheres(const std::string& level, std::array<int, kSpheres> spheres) {
  auto s = create(level);
  act(*s, 0, Action::make(kSetupSide, kLight));
  act(*s, 0, Action::make(kSetupHand, kRight));
  act(*s, 0, Action::make(kSetupColour, 0));
  for (int i = 0; i < kSpheres; ++i) {
    act(*s, 0, Action::make(kSetupSphere, uint8_t(i), uint8_t(spheres[size_t(i)])));
  }
  return board(*s, 0).pool.total();
}

void reach_spheres(ForceBattlesState& s, std::array<int, kSpheres - 1> first_six) {
  act(s, 0, Action::make(kSetupSide, kLight));
  act(s, 0, Action::make(kSetupHand, kRight));
  act(s, 0, Action::make(kSetupColour, 0));
  for (int i = 0; i < kSpheres - 1; ++i) {
    act(s, 0, Action::make(kSetupSphere, uint8_t(i), uint8_t(first_six[size_t(i)])));
  }
}

}  // namespace

TEST_CASE("F2 Learner puts exactly 21 in the spheres and 10 in ATT, DEF and GEAS") {
  auto s = create("learner");
  reach_spheres(*s, {4, 4, 4, 4, 3, 1});
  CHECK(sphere_options(*s, 0) == std::vector<int>{1});
  CHECK(pool_after_spheres("learner", {3, 3, 3, 3, 3, 3, 3}) == 10);
}

TEST_CASE("F2 a sphere choice that cannot reach the competency's total is not offered") {
  auto s = create("learner");
  act(*s, 0, Action::make(kSetupSide, kLight));
  act(*s, 0, Action::make(kSetupHand, kRight));
  act(*s, 0, Action::make(kSetupColour, 0));
  for (int i = 0; i < 4; ++i) act(*s, 0, Action::make(kSetupSphere, uint8_t(i), 4));
  // 16 placed: the fifth sphere must leave 1 for each of the last two without passing 21.
  CHECK(sphere_options(*s, 0) == std::vector<int>{1, 2, 3});
  CHECK(s->apply(0, Action::make(kSetupSphere, 4, 4)).code == RefusalCode::kIllegal);
}

TEST_CASE("F2 Initiate uses 35 but exactly 21 in the spheres") {
  CHECK(pool_after_spheres("initiate", {3, 3, 3, 3, 3, 3, 3}) == 14);
  auto s = create("initiate");
  reach_spheres(*s, {3, 3, 3, 3, 3, 3});
  CHECK(sphere_options(*s, 0) == std::vector<int>{3});
}

TEST_CASE("F2 Templar puts 21 to 28 in the spheres, at most 4 each") {
  CHECK(pool_after_spheres("templar", {4, 4, 4, 4, 4, 4, 4}) == 12);
  auto s = create("templar");
  reach_spheres(*s, {3, 3, 3, 3, 3, 3});
  CHECK(sphere_options(*s, 0) == std::vector<int>{3, 4});
  // Too little early cannot reach 21 later: after 1 and 1 the third sphere needs 3 or 4.
  auto low = create("templar");
  act(*low, 0, Action::make(kSetupSide, kLight));
  act(*low, 0, Action::make(kSetupHand, kRight));
  act(*low, 0, Action::make(kSetupColour, 0));
  act(*low, 0, Action::make(kSetupSphere, 0, 1));
  act(*low, 0, Action::make(kSetupSphere, 1, 1));
  CHECK(sphere_options(*low, 0) == std::vector<int>{3, 4});
}

TEST_CASE("F2 Diamedes uses 50 and chooses one GEAS that costs nothing") {
  CHECK(pool_after_spheres("diamedes", {4, 4, 4, 4, 4, 4, 4}) == 22);
  auto s = create("diamedes");
  SetupChoice c;
  c.free_geas = kHeal;
  setup_without_confirm(*s, 0, c);
  CHECK(s->match().players[0].free_geas == kHeal);
  act(*s, 0, Action::make(kSetupConfirm));
  CHECK(s->match().players[0].stage == kStageDone);
  // A Light player may not choose a Dark GEAS as the free one: refused at that step.
  auto u = create("diamedes");
  act(*u, 0, Action::make(kSetupSide, kLight));
  act(*u, 0, Action::make(kSetupHand, kRight));
  act(*u, 0, Action::make(kSetupColour, 0));
  for (int i = 0; i < kSpheres; ++i) act(*u, 0, Action::make(kSetupSphere, uint8_t(i), 3));
  act(*u, 0, Action::make(kSetupAtt, 5));
  act(*u, 0, Action::make(kSetupDef, 5));
  for (int g = 0; g < kGeasCount; ++g) act(*u, 0, Action::make(kSetupGeas, uint8_t(g), 0));
  REQUIRE(u->match().players[0].stage == kStageFreeGeas);
  const auto free = u->legal_actions(0);
  CHECK(free.size() == 10);
  CHECK(std::find(free.begin(), free.end(), Action::make(kSetupFreeGeas, kRage)) == free.end());
  CHECK(u->apply(0, Action::make(kSetupFreeGeas, kRage)).code == RefusalCode::kIllegal);
  CHECK(u->apply(0, Action::make(kSetupFreeGeas, kHeal)).ok());
  // Below Diamedes there is no free GEAS step.
  auto v = create("templar");
  setup_without_confirm(*v, 0, SetupChoice{});
  CHECK(v->legal_actions(0) == std::vector<Action>{Action::make(kSetupConfirm)});
}

TEST_CASE("F10 every sphere holds at least one counter at setup") {
  auto s = create("templar");
  reach_spheres(*s, {4, 4, 4, 4, 4, 4});
  CHECK(sphere_options(*s, 0) == std::vector<int>{1, 2, 3, 4});
  const auto options = sphere_options(*s, 0);
  CHECK(std::find(options.begin(), options.end(), 0) == options.end());
}

TEST_CASE("Seed a Dark player uses only red counters and a Light player never red") {
  auto s = create();
  act(*s, 0, Action::make(kSetupSide, kDark));
  act(*s, 1, Action::make(kSetupSide, kLight));
  act(*s, 0, Action::make(kSetupHand, kLeft));
  act(*s, 1, Action::make(kSetupHand, kLeft));
  CHECK(s->legal_actions(0) == std::vector<Action>{Action::make(kSetupColour, kRed)});
  const auto light = s->legal_actions(1);
  CHECK(light.size() == 5);
  CHECK(std::find(light.begin(), light.end(), Action::make(kSetupColour, kRed)) == light.end());
  const auto r = s->apply(1, Action::make(kSetupColour, kRed));
  CHECK(r.code == RefusalCode::kIllegal);
  CHECK(r.reason.find("red") != std::string::npos);
}

TEST_CASE("Seed ATT and DEF share at most 10 counters") {
  auto s = create("diamedes");
  reach_spheres(*s, {4, 4, 4, 4, 4, 4});
  act(*s, 0, Action::make(kSetupSphere, 6, 4));
  CHECK(s->legal_actions(0).size() == 11);  // ATT 0..10
  act(*s, 0, Action::make(kSetupAtt, 7));
  CHECK(s->legal_actions(0).size() == 4);  // DEF 0..3
  CHECK_FALSE(s->apply(0, Action::make(kSetupDef, 4)).ok());
}

TEST_CASE("F12 a player's slots of the other side's GEAS stay empty at setup") {
  auto t = create("templar");
  // Light may fill Protect but not Rage.
  act(*t, 0, Action::make(kSetupSide, kLight));
  act(*t, 0, Action::make(kSetupHand, kRight));
  act(*t, 0, Action::make(kSetupColour, 0));
  for (int i = 0; i < kSpheres; ++i) act(*t, 0, Action::make(kSetupSphere, uint8_t(i), 3));
  act(*t, 0, Action::make(kSetupAtt, 4));
  act(*t, 0, Action::make(kSetupDef, 4));
  for (int g = 0; g < kLightning; ++g) act(*t, 0, Action::make(kSetupGeas, uint8_t(g), 0));
  CHECK(t->legal_actions(0) == std::vector<Action>{Action::make(kSetupGeas, kLightning, 0)});
  act(*t, 0, Action::make(kSetupGeas, kLightning, 0));
  CHECK(t->legal_actions(0).size() == 12);  // Lightning Absorb 0..11
}

TEST_CASE("F8 setup choices stay hidden from the opponent and spectators until both confirm") {
  auto s = create();
  const std::string seat1_before = s->view(Viewer::of_seat(1));
  const std::string spectator_before = s->view(Viewer::spectator());
  act(*s, 0, Action::make(kSetupSide, kDark));
  auto other = create();
  act(*other, 0, Action::make(kSetupSide, kLight));
  // Same progress, different choice: the opponent's and the spectator's views are identical.
  CHECK(s->view(Viewer::of_seat(1)) == other->view(Viewer::of_seat(1)));
  CHECK(s->view(Viewer::spectator()) == other->view(Viewer::spectator()));
  CHECK(s->view(Viewer::of_seat(0)) != other->view(Viewer::of_seat(0)));
  CHECK(s->view(Viewer::of_seat(1)) != seat1_before);  // the progress is public
  // The choice's event text is private; others read a redacted line.
  std::vector<Event> events;
  REQUIRE(s->apply(0, Action::make(kSetupHand, kLeft), &events).ok());
  REQUIRE(events.size() == 1);
  CHECK(events[0].text_for(Viewer::of_seat(1)) ==
        std::optional<std::string_view>("@0 made a setup choice"));
  CHECK(events[0].text_for(Viewer::of_seat(0))->find("left") != std::string_view::npos);
  // Redrawing the hidden setup keeps the opponent's view and changes the truth.
  bool changed = false;
  Rng rng(seed_from_number(5));
  for (int i = 0; i < 20; ++i) {
    auto copy = s->clone();
    copy->resample_hidden(Viewer::of_seat(1), rng);
    CHECK(copy->view(Viewer::of_seat(1)) == s->view(Viewer::of_seat(1)));
    changed = changed || copy->view(Viewer::omniscient()) != s->view(Viewer::omniscient());
  }
  CHECK(changed);
  (void)spectator_before;
}

TEST_CASE("F2 both setups are revealed together when the second confirms") {
  auto s = create();
  setup_without_confirm(*s, 0, dark());
  setup_without_confirm(*s, 1, SetupChoice{});
  act(*s, 0, Action::make(kSetupConfirm));
  CHECK(s->match().phase == Phase::kSetup);
  const std::string hidden = s->view(Viewer::of_seat(1));
  s->force_dice({6, 1});
  act(*s, 1, Action::make(kSetupConfirm));
  CHECK(s->match().phase != Phase::kSetup);
  CHECK(s->view(Viewer::of_seat(1)) != hidden);
  CHECK(s->view(Viewer::of_seat(1)) == s->view(Viewer::spectator()));
}
