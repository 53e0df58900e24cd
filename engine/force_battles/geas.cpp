// The thirteen FORCE GEAS: who may use which, when, what it costs and what it does.
#include <algorithm>

#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {
namespace {

// Lightning, Lightning Absorb, Protect and Rage spend any number of counters in one use.
bool takes_amount(int geas) {
  return geas == kLightning || geas == kLightningAbsorb || geas == kProtect || geas == kRage;
}

}  // namespace

bool ForceBattlesState::can_use_geas(Seat seat, int geas) const {
  const Player& p = player(seat);
  if (!geas_allowed(p.side, geas)) return false;
  // Ruling F13: each GEAS once per round, except the counter-by-counter Lightning and Absorb.
  if (geas != kLightning && geas != kLightningAbsorb && (p.used >> geas & 1)) return false;
  // Seed (Hide): no GEAS can be used on a hiding player; ruling F18: while the opponent hides
  // a player may use only Speed ("Speed can still be used if someone is hiding").
  if (geas != kSpeed && player(1 - seat).hiding) return false;
  const bool free = p.free_geas == geas && !p.free_used;
  return free || p.board.geas[geas].total() > 0;
}

void ForceBattlesState::add_geas_uses(Seat seat, int geas, std::vector<Action>& out) const {
  if (!can_use_geas(seat, geas)) return;
  const Player& p = player(seat);
  const int slot = p.board.geas[geas].total();
  // Ruling F19: one Lightning throw is at most 4 counters, a sphere's worth; more throws may
  // follow.
  const int most = !takes_amount(geas)  ? std::min(slot, 1)
                   : geas == kLightning ? std::min(slot, kSphereCapacity)
                                        : slot;
  const bool free = p.free_geas == geas && !p.free_used;
  const Board& victim = player(1 - seat).board;
  for (int n = 1; n <= most + (free ? 1 : 0); ++n) {
    const bool use_free = n > most;
    const int amount = use_free ? 1 : n;
    if (geas == kLightning) {
      for (int s = 0; s < kSpheres; ++s) {
        if (victim.spheres[s].total() > 0) {
          out.push_back(Action::make(kUseGeas, kLightning, uint8_t(amount), use_free, uint8_t(s)));
        }
      }
    } else {
      out.push_back(Action::make(kUseGeas, uint8_t(geas), uint8_t(amount), use_free));
    }
  }
}

void ForceBattlesState::battle_actions(Seat seat, std::vector<Action>& out) const {
  if (m_.chooser == seat) {
    // Sight or Mind Trick was just used in this window (F38): name the new target.
    for (int t = 0; t < kTargets; ++t) out.push_back(Action::make(kChooseTarget, uint8_t(t)));
    return;
  }
  out.push_back(Action::make(kPass));
  add_geas_uses(seat, kPush, out);
  add_geas_uses(seat, kLightning, out);
  if (seat == m_.attacker) {
    // Seed: "Pull can only be played if you're attacking"; F36: after the defender's Jump the
    // attack has already missed, so Pull is no longer offered.
    if (!m_.jumped) add_geas_uses(seat, kPull, out);
    add_geas_uses(seat, kRage, out);
    add_geas_uses(seat, kChoke, out);
    add_geas_uses(seat, kSight, out);  // F38: until the ATT roll
  } else {
    add_geas_uses(seat, kJump, out);
    add_geas_uses(seat, kProtect, out);
    add_geas_uses(seat, kMindTrick, out);  // F38: until the DEF roll
  }
}

void ForceBattlesState::answer_actions(Seat seat, std::vector<Action>& out) const {
  out.push_back(Action::make(kPass));
  std::vector<Action> absorbs;
  add_geas_uses(seat, kLightningAbsorb, absorbs);
  const Board& b = player(seat).board;
  for (const Action& a : absorbs) {
    if (a.arg(1) <= m_.strike) out.push_back(a);
  }
  if (!absorbs.empty()) {
    // Seed: "direct where Lightning is going to hit at the cost of 1 FORCE POWER" (F19).
    const bool paid = b.geas[kLightningAbsorb].total() > 0;
    const bool free = player(seat).free_geas == kLightningAbsorb && !player(seat).free_used;
    for (int s = 0; s < kSpheres; ++s) {
      if (s == m_.strike_sphere || b.spheres[s].total() == 0) continue;
      if (paid) out.push_back(Action::make(kRedirect, uint8_t(s), 0));
      if (free) out.push_back(Action::make(kRedirect, uint8_t(s), 1));
    }
  }
}

void ForceBattlesState::apply_geas(Seat seat, Action action) {
  Player& p = player(seat);
  Board& b = p.board;
  const bool redirect = action.kind == kRedirect;
  const int geas = redirect ? int{kLightningAbsorb} : int{action.arg(0)};
  const bool free = redirect ? action.arg(1) != 0 : action.arg(2) != 0;
  const int amount = redirect ? 1 : action.arg(1);
  // Seed: a spent GEAS counter goes to the FORCE POOL; Protect and Rage counters go into the
  // target first and reach the pool at the end of the round.
  const bool into_target = geas == kProtect || geas == kRage;
  if (free) {
    p.free_used = true;
  } else if (geas == kHeal) {
    // Seed: "You cannot use the FORCE POWER Heal GEAS to heal with": it reaches the pool after.
    heal(seat);
    move_counters(b.geas[geas], b.pool, amount, 1 - seat);
  } else if (into_target) {
    const int target = geas == kProtect ? m_.target : attack_target();
    move_counters(b.geas[geas], b.targets[target], amount, 1 - seat);
  } else {
    move_counters(b.geas[geas], b.pool, amount, 1 - seat);
  }
  p.used = static_cast<uint16_t>(p.used | 1u << geas);
  if (takes_amount(geas)) {
    say(Phrase(free ? kSaidUsesGeasTimesFree : kSaidUsesGeasTimes)
            .seat(seat)
            .entry(geas)
            .number(amount));
  } else {
    say(Phrase(free ? kSaidUsesGeasFree : kSaidUsesGeas).seat(seat).entry(geas));
  }
  switch (geas) {
    case kHide:
      p.hiding = true;
      break;
    case kSpeed:
      p.speed = true;
      break;
    case kSight:
    case kMindTrick:
      m_.chooser = static_cast<int8_t>(seat);
      return;  // the same player names the target next (target step or F38 window)
    case kJump:
      m_.jumped = true;
      break;
    case kPush:
      m_.pushed = true;
      roll_battle();
      return;
    case kPull:
      m_.pulled = true;
      roll_battle();
      return;
    case kChoke:
      m_.choked = true;
      break;
    case kProtect:
      m_.protect = true;
      if (free) ++p.bonus;  // ruling F14: a free use is worth one counter
      break;
    case kRage:
      m_.rage = true;
      if (free) ++p.bonus;
      break;
    case kHeal:
      if (free) heal(seat);  // a paid Heal has healed before its counter was spent
      return;
    case kLightning:
      m_.strike_sphere = static_cast<int8_t>(action.arg(3));
      m_.strike = static_cast<int8_t>(amount);
      m_.strike_victim = static_cast<int8_t>(1 - seat);
      if (can_use_geas(1 - seat, kLightningAbsorb)) {
        m_.phase = Phase::kLightningAnswer;
        m_.actor = static_cast<int8_t>(1 - seat);
        return;
      }
      resolve_strike();
      return;
    case kLightningAbsorb:
      if (redirect) {
        m_.strike_sphere = static_cast<int8_t>(action.arg(0));
        say(Phrase(kSaidLightningDirected).entry(m_.strike_sphere));
      } else {
        m_.strike = static_cast<int8_t>(m_.strike - amount);
      }
      if (m_.strike == 0 || !can_use_geas(seat, kLightningAbsorb)) resolve_strike();
      return;
    default:
      break;
  }
  // A GEAS in a window passes the turn to the other player.
  m_.passes = 0;
  m_.actor = static_cast<int8_t>(1 - seat);
  advance_window();
}

void ForceBattlesState::resolve_strike() {
  // Seed: each Lightning counter takes 1 FORCE POWER from a sphere and skips over to other
  // spheres once one is depleted (ruling F19: in board order from the struck sphere).
  const Seat victim = m_.strike_victim;
  Board& b = player(victim).board;
  int left = m_.strike;
  int drained = 0;
  uint8_t touched = 0;
  for (int i = 0; i < kSpheres && left > 0; ++i) {
    const int s = (m_.strike_sphere + i) % kSpheres;
    Pile& sphere = b.spheres[s];
    const int n = std::min(left, sphere.total());
    move_counters(sphere, b.pool, n, 1 - victim);
    if (n > 0) touched = static_cast<uint8_t>(touched | 1u << s);
    left -= n;
    drained += n;
  }
  if (m_.strike > 0) {
    say(Phrase(kSaidLightningDrains).number(drained).seat(victim));
  }
  if (check_depletion(victim, touched)) return;  // F40: at once
  m_.strike = 0;
  m_.strike_sphere = -1;
  m_.phase = Phase::kBattleGeas;
  m_.passes = 0;
  m_.actor = static_cast<int8_t>(victim);  // the caster acted last
  m_.strike_victim = -1;
  advance_window();
}

void ForceBattlesState::window_pass(Seat seat) {
  if (m_.phase == Phase::kLightningAnswer) {
    resolve_strike();
    return;
  }
  ++m_.passes;
  if (m_.passes >= 2) {
    close_window();
    return;
  }
  m_.actor = static_cast<int8_t>(1 - seat);
  advance_window();
}

void ForceBattlesState::advance_window() {
  // Ruling F28: a player with nothing but Pass passes at once; windows cost no empty decisions.
  std::vector<Action> options;
  while (m_.phase == Phase::kOpening || m_.phase == Phase::kBattleGeas) {
    options.clear();
    if (m_.phase == Phase::kOpening) {
      opening_actions(m_.actor, options);
    } else {
      battle_actions(m_.actor, options);
    }
    if (options.size() > 1) return;
    ++m_.passes;
    if (m_.passes >= 2) {
      close_window();
      return;
    }
    m_.actor = static_cast<int8_t>(1 - m_.actor);
  }
}

void ForceBattlesState::close_window() {
  m_.passes = 0;
  if (m_.phase == Phase::kOpening) {
    roll_initiative();
  } else if (gift_possible()) {
    // F39: before her DEF roll the Light defender may give instead of rolling.
    m_.phase = Phase::kGift;
    m_.actor = static_cast<int8_t>(m_.defender());
  } else {
    roll_battle();
  }
}

bool ForceBattlesState::gift_possible() const {
  std::vector<Action> options;
  gift_actions(m_.defender(), options);
  return options.size() > 1;  // Pass alone is no decision (F28)
}

}  // namespace duelhall::engine::force_battles
