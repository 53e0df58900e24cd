// A Force Battles setup written as text: the form a player's named setup is saved in
// (docs/accounts.md, "Saved decks") and a seat's option. One line per choice, names where the
// rules give names, so a saved setup reads as the player built it:
//   side light|dark          hand left|right          colour green|orange|blue|red|purple|yellow
//   spheres <7 counts: HL HR center LT RT LL RL>      att <n>        def <n>
//   geas <13 counts in the rules' order: Hide ... Rage>
//   free <GEAS name>         (Diamedes' free GEAS; optional: without it the player picks it)
// Words are read in any case; a line starting with '#' is a note. The web client writes and reads
// the same lines (clients/web/src/screens/setup_text.ts).
// The text only names choices: each is still taken as one of the setup's legal steps (setup.cpp),
// so a text the rules do not allow at some step is refused with that step.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/action.hpp"
#include "force_battles/match.hpp"

namespace duelhall::engine::force_battles {

struct SetupPlan {
  uint8_t side = kLight;
  uint8_t hand = kRight;
  uint8_t colour = 0;
  std::array<uint8_t, kSpheres> spheres{};
  uint8_t att = 0;
  uint8_t def = 0;
  std::array<uint8_t, kGeasCount> geas{};
  int8_t free_geas = -1;  // none named
};

// Longest setup text read; a setup's seven lines are far shorter.
inline constexpr size_t kMaxSetupText = 1024;

// The plan a text names, or nullopt with `error` saying which line is wrong.
std::optional<SetupPlan> read_setup_text(std::string_view text, std::string& error);

// The plan written back as text that reads the same.
std::string setup_text(const SetupPlan& plan);

// The step of `plan` at setup `stage` (SetupStage); nullopt at the confirmation, and at the free
// GEAS when the plan names none.
std::optional<Action> plan_step(const SetupPlan& plan, uint8_t stage);

}  // namespace duelhall::engine::force_battles
