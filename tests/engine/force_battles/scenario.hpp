// Building Force Battles scenarios: setups from a short description, fixed dice, and helpers to
// act and to read the board.
#pragma once

#include <array>
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "core/registry.hpp"
#include "force_battles/force_battles.hpp"

namespace fb_test {

using namespace duelhall::engine;
using namespace duelhall::engine::force_battles;

struct SetupChoice {
  int side = kLight;
  int hand = kRight;
  int colour = 2;  // blue; Dark setups use red
  std::array<int, kSpheres> spheres{3, 3, 3, 3, 3, 3, 3};
  int att = 5;
  int def = 5;
  std::array<int, kGeasCount> geas{};
  int free_geas = -1;  // Diamedes only
};

inline SetupChoice dark(SetupChoice c = {}) {
  c.side = kDark;
  c.colour = kRed;
  return c;
}

inline std::unique_ptr<ForceBattlesState> create(const std::string& level = "learner",
                                                 int round_limit = 0) {
  auto created = builtin_registry().create(
      "force_battles", 2, seed_from_number(42),
      {{"competency", level}, {"round_limit", std::to_string(round_limit)}});
  REQUIRE(created.state != nullptr);
  return std::unique_ptr<ForceBattlesState>(
      static_cast<ForceBattlesState*>(created.state.release()));
}

inline void act(ForceBattlesState& s, Seat seat, Action a) {
  const ApplyResult r = s.apply(seat, a);
  INFO(s.action_label(seat, a) << ": " << r.reason);
  REQUIRE(r.ok());
}

inline bool is_legal(const ForceBattlesState& s, Seat seat, Action a) {
  const auto legal = s.legal_actions(seat);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// Applies an action and returns the public event texts it produced, one per line.
inline std::string act_events(ForceBattlesState& s, Seat seat, Action a) {
  std::vector<Event> events;
  const ApplyResult r = s.apply(seat, a, &events);
  INFO(s.action_label(seat, a) << ": " << r.reason);
  REQUIRE(r.ok());
  std::string out;
  for (const Event& e : events) out += std::string(*e.text_for(Viewer::spectator())) + "\n";
  return out;
}

// Applies one seat's whole setup, without the confirm.
inline void setup_without_confirm(ForceBattlesState& s, Seat seat, const SetupChoice& c) {
  act(s, seat, Action::make(kSetupSide, uint8_t(c.side)));
  act(s, seat, Action::make(kSetupHand, uint8_t(c.hand)));
  act(s, seat, Action::make(kSetupColour, uint8_t(c.colour)));
  for (int i = 0; i < kSpheres; ++i) {
    act(s, seat, Action::make(kSetupSphere, uint8_t(i), uint8_t(c.spheres[size_t(i)])));
  }
  act(s, seat, Action::make(kSetupAtt, uint8_t(c.att)));
  act(s, seat, Action::make(kSetupDef, uint8_t(c.def)));
  for (int g = 0; g < kGeasCount; ++g) {
    act(s, seat, Action::make(kSetupGeas, uint8_t(g), uint8_t(c.geas[size_t(g)])));
  }
  if (s.match().level == Competency::kDiamedes) {
    // Unless told, a GEAS that only waits for a reward decision: Heal (Light) or Choke (Dark).
    const int free = c.free_geas >= 0 ? c.free_geas : c.side == kLight ? kHeal : kChoke;
    act(s, seat, Action::make(kSetupFreeGeas, uint8_t(free)));
  }
}

// Both setups, then the dice that follow are fixed (initiative first).
inline std::unique_ptr<ForceBattlesState> battle(const SetupChoice& a, const SetupChoice& b,
                                                 std::initializer_list<int> dice,
                                                 const std::string& level = "learner",
                                                 int round_limit = 0) {
  auto s = create(level, round_limit);
  setup_without_confirm(*s, 0, a);
  setup_without_confirm(*s, 1, b);
  s->force_dice(dice);
  act(*s, 0, Action::make(kSetupConfirm));
  act(*s, 1, Action::make(kSetupConfirm));
  return s;
}

inline const Board& board(const ForceBattlesState& s, Seat seat) {
  return s.match().players[size_t(seat)].board;
}
inline Board& board_mut(ForceBattlesState& s, Seat seat) {
  return s.match_for_test().players[size_t(seat)].board;
}
inline int sphere(const ForceBattlesState& s, Seat seat, int sp) {
  return board(s, seat).spheres[size_t(sp)].total();
}

inline Action pass() {
  return Action::make(kPass);
}
inline Action use(int geas, int amount = 1, bool free = false, int sphere_arg = 0) {
  return Action::make(kUseGeas, uint8_t(geas), uint8_t(amount), free, uint8_t(sphere_arg));
}
inline Action pull(int sp, int n) {
  return Action::make(kPullIn, uint8_t(sp), uint8_t(n));
}
inline Action place(int sp, int n) {
  return Action::make(kPlace, uint8_t(sp), uint8_t(n));
}
inline Action choose(int target) {
  return Action::make(kChooseTarget, uint8_t(target));
}

// A setup with `n` counters in one GEAS slot.
inline SetupChoice with(SetupChoice c, int geas, int n) {
  c.geas[size_t(geas)] = n;
  return c;
}

// Round 1: seat 0 attacks `target`, nobody pulls, and the window before the rolls opens.
inline void to_battle_window(ForceBattlesState& s, int target) {
  act(s, 0, Action::make(kAttack));
  act(s, 0, choose(target));
  act(s, 1, pass());
  act(s, 0, pass());
}

}  // namespace fb_test
