// Force Battles: a two-player dice duel on a character board (docs/rules/force-battles.md).
//
// Each player secretly builds a board: Light or Dark side, hand, colour, a stance of FORCE POWER
// counters in seven FORCE SPHERES between six body TARGETS, ATT, DEF and thirteen FORCE GEAS
// slots; the rest goes to the FORCE POOL. Both setups are revealed together. Each round the
// players may use GEAS, roll a D6 for initiative, the attacker rolls (or moves) a target, both
// pull counters from spheres into targets to raise their Hit and Block Dice, more GEAS may be
// thrown, then both roll 2D6: at or under the die succeeds, a die of 11 or more fails unless
// Protect or Rage. A hit that is not blocked deals D6 to the target; more damage than counters
// maims it and ends the battle. Dark players take counters, Light players give them toward
// conversion.
//
// Parameters: `competency` (learner, initiate, templar, diamedes: F2 budgets, Diamedes' free
// GEAS) and `round_limit` (0 = none; a hard cap of kRoundCap rounds always applies, F6, F21).
//
// Actions are described in proto/force_battles.proto (ActionKind). Dice come only from
// State::roll; tests may queue fixed dice with force_dice(), which never touches the real path.
#pragma once

#include <deque>
#include <memory>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "force_battles/match.hpp"
#include "force_battles/phrases.hpp"
#include "force_battles/setup_text.hpp"

namespace duelhall::engine::force_battles {

inline constexpr int kRoundCap = 100;

enum Kind : uint8_t {
  kSetupSide = 1,
  kSetupHand = 2,
  kSetupColour = 3,
  kSetupSphere = 4,
  kSetupAtt = 5,
  kSetupDef = 6,
  kSetupGeas = 7,
  kSetupFreeGeas = 8,
  kSetupConfirm = 9,
  kPass = 10,
  kUseGeas = 11,  // geas, amount, free, sphere
  kAttack = 12,
  kDecline = 13,
  kChooseTarget = 14,
  kMoveTarget = 15,
  kPullIn = 16,  // sphere, count
  kKick = 17,
  kRegain = 18,  // 0 own pool, 1 the opponent's pool
  kPlace = 19,   // sphere, count
  kPoolRest = 20,
  kStanceKeep = 21,
  kStanceRearrange = 22,
  kGive = 23,  // location: 0-6 sphere, 7 ATT, 8 DEF, 9-21 GEAS slot, 22-27 target
  kTake = 24,
  kRedirect = 25,  // sphere, free
  kLastKind = kRedirect,
};

class ForceBattlesState final : public State {
 public:
  explicit ForceBattlesState(MatchConfig config);

  SeatMask pending() const override;
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::string action_label(Seat seat, Action action) const override;
  bool terminal() const override { return m_.phase == Phase::kOver; }
  Outcome outcome() const override;
  std::unique_ptr<State> clone() const override;
  void write_view(const Viewer& viewer, std::string& out) const override;
  void resample_hidden(const Viewer& viewer, Rng& rng) override;
  std::vector<int32_t> inventory() const override;

  using State::legal_actions;
  const Match& match() const { return m_; }
  // The attacker's target this round (hand target, or the leg when kicking) and both dice.
  int attack_target() const;
  int hit_die() const;
  int block_die() const;
  // Makes every choice of `plan` for `seat`, each as the setup's legal step, leaving the seat its
  // confirmation (and the free GEAS when the plan names none); a seat's setup text (its option)
  // is made so when the match is built. Nullopt when done, else the step the rules refuse, with
  // the seat's setup left part-made.
  std::optional<std::string> preset_setup(Seat seat, const SetupPlan& plan);

  // Test hooks: hand-built states and fixed dice. Forced dice are used before the real random
  // source and are never serialized; nothing on the server's path calls these.
  Match& match_for_test() { return m_; }
  void force_dice(std::initializer_list<int> dice) { forced_.insert(forced_.end(), dice); }
  size_t forced_dice_left() const { return forced_.size(); }

 protected:
  void do_apply(Seat seat, Action action) override;
  uint8_t last_action_kind() const override { return kLastKind; }
  ApplyResult explain_refusal(Seat seat, Action action) const override;
  void save_rules(ByteWriter& out) const override;
  void load_rules(ByteReader& in) override;

 private:
  // setup.cpp
  void setup_actions(Seat seat, std::vector<Action>& out) const;
  void apply_setup(Seat seat, Action action);
  void reveal_setups();
  // round.cpp
  void start_round();
  void opening_actions(Seat seat, std::vector<Action>& out) const;
  void roll_initiative();
  void begin_attack(Seat attacker);
  void target_actions(Seat seat, std::vector<Action>& out) const;
  void apply_target(Seat seat, Action action);
  void pull_actions(Seat seat, std::vector<Action>& out) const;
  void apply_pull(Seat seat, Action action);
  // geas.cpp
  bool can_use_geas(Seat seat, int geas) const;
  void add_geas_uses(Seat seat, int geas, std::vector<Action>& out) const;
  void battle_actions(Seat seat, std::vector<Action>& out) const;
  void apply_geas(Seat seat, Action action);
  void answer_actions(Seat seat, std::vector<Action>& out) const;
  void resolve_strike();
  void window_pass(Seat seat);
  void advance_window();
  void close_window();
  bool gift_possible() const;
  void apply_gift(Seat seat, Action action);
  void retarget(Seat seat, int target);
  // outcome.cpp
  void roll_battle();
  void run_tasks();
  bool start_task(const Task& task);
  bool return_target(Seat seat);
  void drain(Seat victim, int amount, bool choke);
  void turn_dark(Seat seat);
  void end_round();
  bool check_board_ends();
  bool check_depletion(Seat victim, uint8_t drained);
  int round_limit_count(Seat seat) const;  // F41
  bool check_conversion();
  void finish(int winner, const Phrase& reason);  // the reason is kept as its text
  // follow_ups.cpp
  void follow_up_actions(Seat seat, std::vector<Action>& out) const;
  void gift_actions(Seat seat, std::vector<Action>& out) const;
  void apply_follow_up(Seat seat, Action action);
  bool start_placement(Seat seat, Pile counters, uint8_t mask, bool pool, bool spread);
  bool continue_placement();
  void heal(Seat seat);
  // Where a successful kick takes its counter from: -1 nowhere, 0-6 a sphere, 7 the pool.
  int kick_take_from(Seat kicker) const;
  bool place_ok(int sphere, int n) const;

  int die(Seat seat, const std::string& what);
  void show_roll(Seat seat, RollFor what, int die);
  // The attack's (or the defence's) 2D6 against its Hit (Block) Die.
  void show_battle_roll(Seat seat, bool attack, int first, int second, int die);
  void finish_target_step();
  bool seat_can_pay(Seat seat, int geas, int amount, bool free) const;
  Player& player(Seat seat) { return m_.players[static_cast<size_t>(seat)]; }
  const Player& player(Seat seat) const { return m_.players[static_cast<size_t>(seat)]; }
  // A public event, said as a phrase of the ruleset's book (phrases.hpp).
  void say(const Phrase& phrase);

  Match m_;
  std::deque<int> forced_;
};

void register_force_battles(Registry& registry);

}  // namespace duelhall::engine::force_battles
