// The round up to the GEAS window before the rolls (F4.1-F4.6).
#include "force_battles/force_battles.hpp"
#include "force_battles/text.hpp"

namespace duelhall::engine::force_battles {
void ForceBattlesState::start_round() {
  ++m_.round;
  for (Player& p : m_.players) {
    p.used = 0;
    p.free_used = false;
    p.hiding = p.speed = false;
    p.bonus = 0;
  }
  m_.initiative = m_.attacker = m_.target = m_.chooser = -1;
  m_.kicking = m_.jumped = m_.pushed = m_.pulled = m_.choked = false;
  m_.protect = m_.rage = m_.hit = m_.block = m_.gift_given = false;
  m_.pulled_from = {};
  m_.strike_sphere = m_.strike_victim = -1;
  m_.strike = 0;
  m_.rolls.clear();
  m_.tasks.clear();
  say(Phrase(kSaidRound).number(m_.round));
  // F4.1; ruling F15: the last defender speaks first, seat 0 in the first round.
  m_.phase = Phase::kOpening;
  m_.actor = static_cast<int8_t>(m_.last_defender >= 0 ? m_.last_defender : 0);
  m_.passes = 0;
  advance_window();
}

void ForceBattlesState::opening_actions(Seat seat, std::vector<Action>& out) const {
  out.push_back(Action::make(kPass));
  add_geas_uses(seat, kHide, out);
  // F32: after a successful kick the kicker has the initiative; Speed could change
  // nothing and is not offered.
  if (m_.kick_initiative < 0) add_geas_uses(seat, kSpeed, out);
}

void ForceBattlesState::show_roll(Seat seat, RollFor what, int die) {
  say(Phrase(kSaidRolled).seat(seat).number(die).entry(static_cast<int>(what)));
  m_.rolls.push_back(
      {static_cast<int8_t>(seat), std::string(roll_name(what)), {static_cast<uint8_t>(die)}});
}

void ForceBattlesState::show_battle_roll(Seat seat, bool attack, int first, int second, int die) {
  say(Phrase(attack ? kSaidRolledAttack : kSaidRolledDefence)
          .seat(seat)
          .number(first)
          .number(second)
          .number(first + second)
          .number(die));
  m_.rolls.push_back(
      {static_cast<int8_t>(seat),
       attack ? text("attack (Hit Die ", die, ")") : text("defence (Block Die ", die, ")"),
       {static_cast<uint8_t>(first), static_cast<uint8_t>(second)}});
}

void ForceBattlesState::roll_initiative() {
  int winner = -1;
  bool must_attack = false;
  const bool speed0 = player(0).speed, speed1 = player(1).speed;
  if (m_.kick_initiative >= 0) {
    winner = m_.kick_initiative;  // seed: a successful kick gains initiative for the next round
    m_.kick_initiative = -1;
    say(Phrase(kSaidKickInitiative).seat(winner));
  } else if (speed0 != speed1) {
    winner = speed0 ? 0 : 1;  // Speed: "Wins Initiative"; both Speed: roll as usual (F4.2)
    say(Phrase(kSaidSpeedInitiative).seat(winner));
  }
  while (winner < 0) {
    const int a = die(0, "D6 initiative");
    const int b = die(1, "D6 initiative");
    show_roll(0, RollFor::kInitiative, a);
    show_roll(1, RollFor::kInitiative, b);
    if (a != b) {
      winner = a > b ? 0 : 1;
    } else if (m_.round > 1 && m_.last_defender >= 0) {
      // Seed: on a tie "the last person to DEFEND will ATTACK" (F4.2): no decline.
      winner = m_.last_defender;
      must_attack = true;
    } else {
      // Seed: at the beginning, the highest ATT; F37: she must attack, as on a later tie.
      const int att0 = player(0).board.att.total(), att1 = player(1).board.att.total();
      if (att0 != att1) {
        winner = att0 > att1 ? 0 : 1;
        must_attack = true;
      }
    }
  }
  say(Phrase(kSaidWinsInitiative).seat(winner));
  m_.initiative = static_cast<int8_t>(winner);
  if (must_attack) {
    say(Phrase(m_.round > 1 ? kSaidDefendedLastMustAttack : kSaidHigherAttMustAttack).seat(winner));
    begin_attack(winner);
    return;
  }
  m_.phase = Phase::kAttackChoice;
  m_.actor = static_cast<int8_t>(winner);
}

void ForceBattlesState::begin_attack(Seat attacker) {
  m_.attacker = static_cast<int8_t>(attacker);
  m_.phase = Phase::kTarget;
  m_.actor = static_cast<int8_t>(attacker);
  // Seed: the initiative winner chooses where to attack in the first round and after a double
  // botch; ruling F16: a player forced to attack after a decline rolls as usual.
  const bool free_choice = attacker == m_.initiative && (m_.round == 1 || m_.free_target_next);
  m_.free_target_next = false;
  if (free_choice) {
    m_.chooser = static_cast<int8_t>(attacker);
    m_.target = kTorso;  // placeholder until named; the view shows the chooser
    return;
  }
  const Player& p = player(attacker);
  const int d = die(attacker, "D6 target");
  show_roll(attacker, RollFor::kTarget, d);
  m_.target = static_cast<int8_t>(target_for_roll(p.side, p.hand, d));
  say(Phrase(kSaidAttackGoesTo).entry(m_.target));
}

void ForceBattlesState::target_actions(Seat seat, std::vector<Action>& out) const {
  // Sight and Mind Trick may be used here, before counters are pulled in, or in the window
  // before the rolls (F38, battle_actions).
  if (m_.chooser == seat) {
    for (int t = 0; t < kTargets; ++t) out.push_back(Action::make(kChooseTarget, uint8_t(t)));
    return;
  }
  out.push_back(Action::make(kPass));
  if (seat == m_.attacker) {
    add_geas_uses(seat, kSight, out);
    // After Mind Trick the attacker may only answer with Sight (ruling F17).
    if (player(m_.defender()).used >> kMindTrick & 1) return;
    const Board& b = player(seat).board;
    for (int s = 0; s < kSpheres; ++s) {
      if (!adjacent(s, m_.target) || b.spheres[s].total() == 0) continue;
      for (int t = 0; t < kTargets; ++t) {
        if (lies_between(s, m_.target, t)) {
          out.push_back(Action::make(kMoveTarget, uint8_t(s), uint8_t(t)));
        }
      }
    }
  } else {
    add_geas_uses(seat, kMindTrick, out);
  }
}

void ForceBattlesState::finish_target_step() {
  m_.chooser = -1;
  m_.phase = Phase::kDefenderPull;
  m_.actor = static_cast<int8_t>(m_.defender());
}

void ForceBattlesState::apply_target(Seat seat, Action action) {
  const Seat other = 1 - seat;
  switch (action.kind) {
    case kUseGeas:
      apply_geas(seat, action);
      return;
    case kMoveTarget: {
      // F1: one movement costs 1 FORCE POWER from the conjoining sphere, to the FORCE POOL.
      Board& b = player(seat).board;
      move_counters(b.spheres[action.arg(0)], b.pool, 1, other);
      m_.target = static_cast<int8_t>(action.arg(1));
      say(Phrase(kSaidMovesAttack).seat(seat).entry(action.arg(0)).entry(m_.target));
      return;
    }
    case kChooseTarget:
      m_.target = static_cast<int8_t>(action.arg(0));
      m_.chooser = -1;
      say(Phrase(kSaidNamesTarget).seat(seat).entry(m_.target));
      break;
    case kPass:
      break;
    default:
      return;
  }
  // The attacker's turn ends: the defender may answer with Mind Trick. The defender's turn
  // ends: a pass settles the target; a target named by Mind Trick may be answered with Sight.
  if (seat == m_.attacker) {
    if (can_use_geas(other, kMindTrick)) {
      m_.actor = static_cast<int8_t>(other);
      return;
    }
  } else if (action.kind == kChooseTarget && can_use_geas(other, kSight)) {
    m_.actor = static_cast<int8_t>(other);
    return;
  }
  finish_target_step();
}

int ForceBattlesState::attack_target() const {
  const int hand = player(m_.attacker).hand;
  return m_.kicking ? hand_leg(hand) : hand_target(hand);
}

int ForceBattlesState::hit_die() const {
  const Player& a = player(m_.attacker);
  int bonus = m_.rage ? a.bonus : 0;
  return a.board.att.total() + a.board.targets[attack_target()].total() + bonus;
}

int ForceBattlesState::block_die() const {
  const Player& d = player(m_.defender());
  int bonus = m_.protect ? d.bonus : 0;
  return d.board.def.total() + d.board.targets[m_.target].total() + bonus;
}

void ForceBattlesState::pull_actions(Seat seat, std::vector<Action>& out) const {
  out.push_back(Action::make(kPass));
  const Board& b = player(seat).board;
  const bool attacking = m_.phase == Phase::kAttackerPull;
  for (int s = 0; s < kSpheres; ++s) {
    bool from = false;
    if (!attacking) {
      from = adjacent(s, m_.target);
    } else if (m_.kicking) {
      from = s == kLL || s == kRL;  // seed: "from either bottom two FORCE SPHERES"
    } else {
      from = adjacent(s, hand_target(player(seat).hand));
    }
    if (!from) continue;
    for (int n = 1; n <= b.spheres[s].total(); ++n) {
      out.push_back(Action::make(kPullIn, uint8_t(s), uint8_t(n)));
    }
  }
  if (attacking && !m_.kicking) out.push_back(Action::make(kKick));
}

void ForceBattlesState::apply_pull(Seat seat, Action action) {
  Board& b = player(seat).board;
  const bool attacking = m_.phase == Phase::kAttackerPull;
  if (action.kind == kPullIn) {
    const int into = attacking ? attack_target() : m_.target;
    const int from = action.arg(0);
    Pile moved;
    move_counters(b.spheres[from], moved, action.arg(1), 1 - seat);
    if (!attacking) {
      for (Seat o = 0; o < 2; ++o) {
        m_.pulled_from[from].by_owner[o] =
            static_cast<int16_t>(m_.pulled_from[from].by_owner[o] + moved.by_owner[o]);
      }
    }
    move_counters(moved, b.targets[into], moved.total(), 1 - seat);
    say(Phrase(kSaidPulls).seat(seat).number(action.arg(1)).entry(action.arg(0)).entry(into));
    return;
  }
  if (action.kind == kKick) {
    // Seed, ruling F29: the kick pulls the HAND TARGET's counters into the leg on that side.
    const int hand = player(seat).hand;
    Pile& arm = b.targets[hand_target(hand)];
    move_counters(arm, b.targets[hand_leg(hand)], arm.total(), 1 - seat);
    m_.kicking = true;
    say(Phrase(kSaidKicksWith).seat(seat).entry(hand_leg(hand)));
    return;
  }
  if (!attacking) {
    say(Phrase(kSaidBlocksWith).seat(seat).number(block_die()));
    m_.phase = Phase::kAttackerPull;
    m_.actor = m_.attacker;
    return;
  }
  say(Phrase(kSaidAttacksWith).seat(seat).number(hit_die()));
  m_.phase = Phase::kBattleGeas;
  m_.actor = static_cast<int8_t>(m_.defender());  // F4.7: the defender first
  m_.passes = 0;
  advance_window();
}

void ForceBattlesState::retarget(Seat seat, int target) {
  // F38: Sight or Mind Trick used in the window before the rolls names a new target. The
  // defender's counters pulled into the old one go back to the spheres they came from (Protect's
  // counters follow the target), and both players may pull again.
  m_.chooser = -1;
  say(Phrase(kSaidNamesTarget).seat(seat).entry(target));
  if (target == m_.target) {
    m_.passes = 0;
    m_.actor = static_cast<int8_t>(1 - seat);
    advance_window();
    return;
  }
  Board& b = player(m_.defender()).board;
  Pile& old = b.targets[m_.target];
  for (int s = 0; s < kSpheres; ++s) {
    for (Seat o = 0; o < 2; ++o) move_counters(old, b.spheres[s], m_.pulled_from[s].of(o), o);
  }
  m_.pulled_from = {};
  move_counters(old, b.targets[target], old.total(), m_.attacker);
  m_.target = static_cast<int8_t>(target);
  m_.phase = Phase::kDefenderPull;
  m_.actor = static_cast<int8_t>(m_.defender());
}

}  // namespace duelhall::engine::force_battles
