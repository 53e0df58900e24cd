// The rule state of a Force Battles match: both boards, the setup progress, the round in progress
// and the follow-up decisions it still owes. Plain data; the rules live in ForceBattlesState.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "force_battles/board.hpp"

namespace duelhall::engine::force_battles {

enum class Competency : uint8_t { kLearner, kInitiate, kTemplar, kDiamedes };

// F2: what each competency level may spend.
struct Budget {
  int total;       // all FORCE POWER
  int sphere_min;  // spheres at the start
  int sphere_max;
};
Budget budget_of(Competency level);

// Setup is a fixed sequence of small steps, the same length for every player of a level, so the
// progress can be public while the choices stay hidden (F8).
enum SetupStage : uint8_t {
  kStageSide = 0,
  kStageHand = 1,
  kStageColour = 2,
  kStageSpheres = 3,                         // 3..9, one per sphere
  kStageAtt = kStageSpheres + kSpheres,      // 10
  kStageDef = kStageAtt + 1,                 // 11
  kStageGeas = kStageDef + 1,                // 12..24, one per GEAS
  kStageFreeGeas = kStageGeas + kGeasCount,  // 25, Diamedes only
  kStageConfirm = kStageFreeGeas + 1,        // 26
  kStageDone = kStageConfirm + 1,
};

enum class Phase : uint8_t {
  kSetup,            // both seats choose secretly (F2, F8)
  kOpening,          // F4.1: Hide and Speed before initiative
  kAttackChoice,     // F4.3: the initiative winner attacks or declines
  kTarget,           // F4.4: target moves, Sight, Mind Trick
  kDefenderPull,     // F4.5
  kAttackerPull,     // F4.6 (and the Kick)
  kBattleGeas,       // F4.7: GEAS before the rolls
  kLightningAnswer,  // Lightning Absorb against a pending strike
  kReward,           // F5 miss and block: regain, take or Heal
  kPlacement,        // placing counters one pile at a time
  kStance,           // keep or rearrange the stance
  kGift,             // F39: the Light defender gives instead of rolling her DEF
  kKickTake,         // a successful Kick's counter
  kOver,
};

// Follow-up decisions owed after the rolls, handled in order.
enum class TaskKind : uint8_t { kReturnTarget, kReward, kKickTake, kStance, kEndRound };
struct Task {
  TaskKind kind = TaskKind::kEndRound;
  uint8_t seat = 0;
  bool operator==(const Task&) const = default;
};

struct Roll {
  int8_t seat = -1;  // whose roll; -1 for none
  std::string what;
  std::vector<uint8_t> dice;
  bool operator==(const Roll&) const = default;
};

struct Player {
  Board board;
  uint8_t stage = kStageSide;  // setup progress
  uint8_t side = kLight;
  uint8_t hand = kRight;
  uint8_t colour = 0;
  int8_t free_geas = -1;  // Diamedes' GEAS that costs nothing (F2)

  // This round only.
  uint16_t used = 0;       // bit g: GEAS g used this round (ruling F13)
  bool free_used = false;  // Diamedes' free use this round
  bool hiding = false;
  bool speed = false;
  int8_t bonus = 0;  // free Protect or Rage: +1 without a counter (ruling F14)
  bool operator==(const Player&) const = default;
};

struct Match {
  Competency level = Competency::kLearner;
  int16_t round_limit = 0;  // 0: none (the hard cap still applies)
  std::array<Player, 2> players{};
  Phase phase = Phase::kSetup;
  int16_t round = 0;
  int8_t winner = -1;  // -1 none yet; 2 a draw
  std::string end_reason;

  // Carried between rounds.
  int8_t last_defender = -1;
  int8_t kick_initiative = -1;    // a successful Kick wins the next initiative
  bool free_target_next = false;  // after a double botch the initiative winner chooses (seed)

  // The round.
  int8_t initiative = -1;
  int8_t attacker = -1;
  int8_t actor = -1;  // whose decision in the window phases
  int8_t target = -1;
  int8_t chooser = -1;  // who may name the target freely now (first round, Sight, Mind Trick)
  bool kicking = false;
  uint8_t passes = 0;  // consecutive passes in a GEAS window
  bool jumped = false, pushed = false, pulled = false, choked = false;
  bool protect = false, rage = false;  // the 11-or-more rule is waived
  bool hit = false, block = false;
  int8_t strike_sphere = -1;  // a pending Lightning strike on the other player's sphere
  int8_t strike = 0;
  int8_t strike_victim = -1;
  bool gift_given = false;
  // F38: where the defender's counters in the target came from, so that they can go back when
  // Sight or Mind Trick changes the target after the pulls.
  std::array<Pile, kSpheres> pulled_from{};
  std::vector<Roll> rolls;  // this round's dice, shown to everyone (F7)

  // Follow-ups and the placement in progress.
  std::vector<Task> tasks;
  Pile buffer;
  uint8_t place_mask = 0;     // spheres that may receive
  bool place_pool = false;    // the rest may go to the pool
  bool place_spread = false;  // a stance: no sphere may stay empty while counters allow (F10)

  int defender() const { return 1 - attacker; }
  bool operator==(const Match&) const = default;
};

}  // namespace duelhall::engine::force_battles
