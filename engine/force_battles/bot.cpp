// The "heuristic" bot: plays the dice sensibly without search. It reads only what its seat's
// view shows (after the reveal everything is open; during setup it looks at its own board).
#include "force_battles/bot.hpp"

#include <algorithm>

namespace duelhall::engine::force_battles {
namespace {

constexpr int kSafeDie = 10;     // 11 or more misses automatically
constexpr int kGuardedDie = 12;  // with Protect or Rage a die of 12 always succeeds

bool has(const std::vector<Action>& legal, Action a) {
  return std::binary_search(legal.begin(), legal.end(), a);
}

// The legal action of `kind` whose argument `arg` is nearest to `want`.
const Action* nearest(const std::vector<Action>& legal, uint8_t kind, int arg, int want) {
  const Action* best = nullptr;
  for (const Action& a : legal) {
    if (a.kind != kind) continue;
    if (!best || std::abs(a.arg(arg) - want) < std::abs(best->arg(arg) - want)) best = &a;
  }
  return best;
}

// The largest pull (or GEAS amount) that keeps the die at or under `limit`.
const Action* largest_within(const std::vector<Action>& legal, uint8_t kind, int amount_arg,
                             int room) {
  const Action* best = nullptr;
  for (const Action& a : legal) {
    if (a.kind == kind && a.arg(amount_arg) <= room &&
        (!best || a.arg(amount_arg) > best->arg(amount_arg))) {
      best = &a;
    }
  }
  return best;
}

Action setup_choice(const ForceBattlesState& s, Seat seat, const std::vector<Action>& legal) {
  const Player& p = s.match().players[size_t(seat)];
  const Action first = legal.front();
  const auto pick = [&](const Action* a) { return a ? *a : first; };
  switch (first.kind) {
    case kSetupSphere:
      return pick(nearest(legal, kSetupSphere, 1, 4));
    case kSetupAtt:
      return pick(nearest(legal, kSetupAtt, 0, 5));
    case kSetupDef:
      return pick(nearest(legal, kSetupDef, 0, 5));
    case kSetupGeas: {
      // Everything left goes to the die-raising GEAS of the side.
      const int keep = p.side == kLight ? kProtect : kRage;
      return pick(nearest(legal, kSetupGeas, 1, first.arg(0) == keep ? 50 : 0));
    }
    case kSetupFreeGeas:
      return pick(nearest(legal, kSetupFreeGeas, 0, p.side == kLight ? kProtect : kRage));
    default:
      return legal.back();  // Dark side, right hand, the last colour allowed
  }
}

}  // namespace

Action HeuristicBot::choose(const State& state, Seat seat, Rng& rng) {
  std::vector<Action> legal;
  state.legal_actions(seat, legal);
  const auto* s = dynamic_cast<const ForceBattlesState*>(&state);
  if (legal.empty() || !s) return RandomBot().choose(state, seat, rng);
  const Match& m = s->match();
  const Player& me = m.players[size_t(seat)];
  const Board& them = m.players[size_t(1 - seat)].board;
  const auto pick = [&](const Action* a) { return a ? *a : legal.front(); };
  switch (m.phase) {
    case Phase::kSetup:
      return setup_choice(*s, seat, legal);
    case Phase::kAttackChoice:
      return Action::make(kAttack);
    case Phase::kTarget: {
      if (has(legal, Action::make(kPass))) return Action::make(kPass);
      // Aim at the leg whose one sphere is weaker: it can be defended least.
      const bool left = them.spheres[kLL].total() <= them.spheres[kRL].total();
      const int target = seat == m.attacker ? (left ? kLeftLeg : kRightLeg) : kTorso;
      return Action::make(kChooseTarget, uint8_t(target));
    }
    case Phase::kDefenderPull:
      return pick(largest_within(legal, kPullIn, 1, kSafeDie - s->block_die()));
    case Phase::kAttackerPull:
      return pick(largest_within(legal, kPullIn, 1, kSafeDie - s->hit_die()));
    case Phase::kBattleGeas: {
      const bool attacking = seat == m.attacker;
      const int geas = attacking ? kRage : kProtect;
      const int die = attacking ? s->hit_die() : s->block_die();
      const Action* guard = nullptr;
      for (const Action& a : legal) {
        if (a.kind == kUseGeas && a.arg(0) == geas && die + a.arg(1) <= kGuardedDie &&
            (!guard || a.arg(1) > guard->arg(1))) {
          guard = &a;
        }
      }
      if (guard) return *guard;
      if (attacking && has(legal, Action::make(kUseGeas, kChoke, 1))) {
        return Action::make(kUseGeas, kChoke, 1);
      }
      return Action::make(kPass);
    }
    case Phase::kLightningAnswer:
      return pick(largest_within(legal, kUseGeas, 1, m.strike));
    case Phase::kReward:
      for (const Action& a : legal) {
        if (a.kind == kUseGeas) return a;  // Heal
      }
      if (me.side == kDark && has(legal, Action::make(kRegain, 1))) return Action::make(kRegain, 1);
      if (has(legal, Action::make(kRegain, 0))) return Action::make(kRegain, 0);
      return Action::make(kPass);
    case Phase::kPlacement: {
      const Action* best = nullptr;
      for (const Action& a : legal) {
        if (a.kind == kPlace && a.arg(1) == 1 &&
            (!best ||
             me.board.spheres[a.arg(0)].total() < me.board.spheres[best->arg(0)].total())) {
          best = &a;
        }
      }
      return pick(best);
    }
    case Phase::kGift:
      return legal.back();  // a GEAS slot's counter if any
    case Phase::kKickTake:
      // The usual counter; a Light bot does not take red and turn Dark.
      return has(legal, Action::make(kTake, 0)) ? Action::make(kTake, 0) : Action::make(kPass);
    default:
      return legal.front();  // Pass, or keeping the stance
  }
}

}  // namespace duelhall::engine::force_battles
