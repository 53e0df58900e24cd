// A setup as text (setup_text.hpp): the seat's option a saved setup gives, made at the start
// through the setup's own legal steps (F2, F8, F10, F12).
#include "scenario.hpp"

using namespace fb_test;

namespace {

const std::string kLightSetup =
    "side light\nhand left\ncolour blue\nspheres 3 3 3 3 3 3 3\natt 4\ndef 3\n"
    "geas 0 1 0 0 1 0 0 0 0 0 0 0 0\n";

CreateResult create_with(const std::string& level, std::vector<std::string> options) {
  return builtin_registry().create("force_battles", 2, seed_from_number(7),
                                   {{"competency", level}, {"round_limit", "0"}},
                                   std::move(options));
}

ForceBattlesState& fb(CreateResult& created) {
  REQUIRE(created.state != nullptr);
  return static_cast<ForceBattlesState&>(*created.state);
}

}  // namespace

TEST_CASE("F2 a seat's setup text makes its choices at the start and leaves it the confirmation") {
  CreateResult created = create_with("learner", {kLightSetup, ""});
  ForceBattlesState& s = fb(created);
  const Player& p = s.match().players[0];
  CHECK(p.side == kLight);
  CHECK(p.hand == kLeft);
  CHECK(p.colour == 2);
  for (int i = 0; i < kSpheres; ++i) CHECK(sphere(s, 0, i) == 3);
  CHECK(board(s, 0).att.total() == 4);
  CHECK(board(s, 0).def.total() == 3);
  CHECK(board(s, 0).geas[kJump].total() == 1);
  CHECK(board(s, 0).geas[kPush].total() == 1);
  CHECK(board(s, 0).pool.total() == 31 - 21 - 4 - 3 - 2);
  // F8: the reveal stays the ordinary step, so the seat still confirms; the other sets up.
  CHECK(s.legal_actions(0) == std::vector<Action>{Action::make(kSetupConfirm)});
  CHECK(is_legal(s, 1, Action::make(kSetupSide, kDark)));
  CHECK(s.history().empty());
  act(s, 0, Action::make(kSetupConfirm));
  setup_without_confirm(s, 1, dark());
  act(s, 1, Action::make(kSetupConfirm));
  CHECK(s.match().phase != Phase::kSetup);

  // The stored match reads back (its config holds the text) to the same state.
  auto again = builtin_registry().deserialize(s.serialize());
  REQUIRE(again != nullptr);
  CHECK(again->serialize() == s.serialize());
}

TEST_CASE("F2 a setup text the rules refuse at some step is refused with that step") {
  SECTION("Learner spheres over 21") {
    std::string text = kLightSetup;
    text.replace(text.find("spheres 3 3 3"), 13, "spheres 4 4 4");
    CreateResult created = create_with("learner", {text});
    CHECK(created.state == nullptr);
    CHECK(created.error.find("seat 0: the setup's") != std::string::npos);
    CHECK(created.error.find("in sphere") != std::string::npos);
  }
  SECTION("a Light side in red") {
    std::string text = kLightSetup;
    text.replace(text.find("blue"), 4, "red");
    CreateResult created = create_with("learner", {"", text});
    CHECK(created.state == nullptr);
    CHECK(created.error.find("seat 1: the setup's red") != std::string::npos);
  }
  SECTION("F12 a Dark GEAS on the Light side") {
    std::string text = kLightSetup;
    text.replace(text.find("geas "), 30, "geas 0 1 0 0 1 0 0 1 0 0 0 0 0");  // Lightning: Dark's
    CreateResult created = create_with("learner", {text});
    CHECK(created.state == nullptr);
    CHECK(created.error.find("Lightning") != std::string::npos);
  }
  SECTION("text that is not a setup") {
    CreateResult created = create_with("learner", {"4 Luke Skywalker\n"});
    CHECK(created.state == nullptr);
    CHECK(created.error.find("side light") != std::string::npos);
    CHECK(create_with("learner", {"side light\nside dark\n"}).error.find("twice") !=
          std::string::npos);
    std::string unknown_free = kLightSetup + "free Flight\n";
    CHECK(create_with("diamedes", {unknown_free}).error.find("no GEAS") != std::string::npos);
  }
}

TEST_CASE("F2 Diamedes' free GEAS is made when the text names it, else left to the player") {
  const std::string text =
      "side light\nhand right\ncolour green\nspheres 3 3 3 3 3 3 3\natt 5\ndef 5\n"
      "geas 0 1 0 0 1 0 0 0 0 0 0 0 0\n";
  CreateResult named = create_with("diamedes", {text + "free mind trick\n", text});
  ForceBattlesState& s = fb(named);
  CHECK(s.match().players[0].free_geas == kMindTrick);
  CHECK(s.legal_actions(0) == std::vector<Action>{Action::make(kSetupConfirm)});
  CHECK(is_legal(s, 1, Action::make(kSetupFreeGeas, kMindTrick)));
}

TEST_CASE("F2 a setup text read and written back reads the same") {
  std::string error;
  auto plan = read_setup_text(
      "# mine\n# the sith\nSIDE Dark\n  hand left \ncolour RED\nspheres 4 4 3 3 3 2 2\n"
      "att 10\ndef 0\ngeas 1 0 0 0 0 0 0 2 0 0 1 0 0\nfree Lightning Absorb\n",
      error);
  REQUIRE(plan);
  CHECK(error.empty());
  const std::string written = setup_text(*plan);
  CHECK(written ==
        "side dark\nhand left\ncolour red\nspheres 4 4 3 3 3 2 2\natt 10\ndef 0\n"
        "geas 1 0 0 0 0 0 0 2 0 0 1 0 0\nfree Lightning Absorb\n");
  auto again = read_setup_text(written, error);
  REQUIRE(again);
  CHECK(setup_text(*again) == written);
  CHECK_FALSE(read_setup_text(std::string(kMaxSetupText + 1, ' '), error));
  CHECK_FALSE(read_setup_text("side light\nhand left\ncolour blue\nspheres 3 3\n", error));
}
