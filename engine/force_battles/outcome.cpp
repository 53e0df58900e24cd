// The rolls, the outcomes (F5), the follow-ups they owe, and the end of the round (F6).
#include <algorithm>

#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {
namespace {

// Seed: "If the TARGET Hit Die or Block Die is 11 or greater, that Hit or Block automatically
// misses", unless Rage (hit) or Protect (block) is in use.
constexpr int kAutoMiss = 11;

}  // namespace

void ForceBattlesState::roll_battle() {
  const Seat a = m_.attacker, d = m_.defender();
  if (m_.pushed) {
    m_.hit = m_.block = false;  // seed: Push "causes both parties to miss"
  } else if (m_.pulled) {
    m_.hit = m_.block = true;  // seed: Pull "causes both parties to Hit and Block"
  } else {
    const int hit_at = hit_die(), block_at = block_die();
    if (m_.jumped) {
      m_.hit = false;  // seed: Jump, "Attacker misses automatically" (no roll, ruling F20)
    } else {
      const int r1 = die(a, "2D6 attack"), r2 = die(a, "2D6 attack");
      show_battle_roll(a, true, r1, r2, hit_at);
      m_.hit = r1 + r2 <= hit_at && (hit_at < kAutoMiss || m_.rage);
    }
    if (m_.gift_given) {
      m_.block = true;  // F39: the gift "is considered a successful Defense roll"
    } else {
      const int r1 = die(d, "2D6 defence"), r2 = die(d, "2D6 defence");
      show_battle_roll(d, false, r1, r2, block_at);
      m_.block = r1 + r2 <= block_at && (block_at < kAutoMiss || m_.protect);
    }
  }
  say(Phrase(m_.hit ? (m_.block ? kSaidHitBlocked : kSaidHitNotBlocked)
                    : (m_.block ? kSaidMissBlocked : kSaidMissNotBlocked)));
  m_.tasks.clear();
  const auto task = [this](TaskKind kind, Seat seat) {
    m_.tasks.push_back({kind, static_cast<uint8_t>(seat)});
  };
  // F35: a declared Choke drains only after a rolled hit; after Pull its counter is simply spent.
  const bool rolled_hit = m_.hit && !m_.pulled;
  if (m_.choked && !rolled_hit) say(Phrase(kSaidChokeDoesNothing));
  if (rolled_hit && m_.choked) {
    // Seed (Choke): drains D6 from the center sphere, then the head; the block does not stop
    // it, but a successful block lets the defender choose another stance (ruling F22).
    const int amount = die(a, "D6 choke");
    show_roll(a, RollFor::kChoke, amount);
    drain(d, amount, true);
    if (terminal()) return;
    task(TaskKind::kReturnTarget, d);
    task(TaskKind::kReturnTarget, a);
    if (m_.block) task(TaskKind::kStance, d);
  } else if (m_.hit && !m_.block && m_.kicking) {
    // Seed: a successful kick gains the next initiative, any stance, and a counter.
    say(Phrase(kSaidKicksSuccessfully).seat(a).seat(d));
    m_.kick_initiative = static_cast<int8_t>(a);
    task(TaskKind::kReturnTarget, d);
    task(TaskKind::kReturnTarget, a);
    task(TaskKind::kKickTake, a);
    task(TaskKind::kStance, a);
  } else if (m_.hit && !m_.block) {
    const int dmg = die(a, "D6 damage");
    show_roll(a, RollFor::kDamage, dmg);
    drain(d, dmg, false);
    if (terminal()) return;
    task(TaskKind::kReturnTarget, d);
    task(TaskKind::kReturnTarget, a);
  } else if (m_.hit) {
    task(TaskKind::kReturnTarget, d);
    task(TaskKind::kReturnTarget, a);
  } else if (m_.block) {
    task(TaskKind::kReturnTarget, d);
    task(TaskKind::kReturnTarget, a);
    // Seed (Jump): "she may NOT gain any FORCE POWER from the hit and miss structure".
    if (!m_.jumped) task(TaskKind::kReward, d);
  } else {
    // Seed: "If both botch, a new Stance can be chosen and the Attacker does not lose FORCE
    // POWER this way"; the next initiative winner chooses the target.
    m_.free_target_next = true;
    task(TaskKind::kReturnTarget, d);
    task(TaskKind::kReturnTarget, a);
    task(TaskKind::kStance, a);
    task(TaskKind::kStance, d);
  }
  task(TaskKind::kEndRound, 0);
  run_tasks();
}

void ForceBattlesState::drain(Seat victim, int amount, bool choke) {
  // F5: damage moves counters from the target to the defender's FORCE POOL; more damage than
  // counters maims the body part and ends the battle. Choke takes the center sphere first.
  Board& b = player(victim).board;
  const int target = choke ? int{kHead} : int{m_.target};
  int left = amount;
  if (choke) {
    const int n = std::min(left, b.spheres[kCenter].total());
    move_counters(b.spheres[kCenter], b.pool, n, 1 - victim);
    left -= n;
    if (n > 0 && check_depletion(victim, 1u << kCenter)) return;
  }
  Pile& body = b.targets[target];
  const int n = std::min(left, body.total());
  move_counters(body, b.pool, n, 1 - victim);
  left -= n;
  say(Phrase(choke ? kSaidLosesToChoke : kSaidLoses)
          .seat(victim)
          .number(amount - left)
          .entry(target));
  if (left > 0)
    finish(m_.attacker, Phrase(kSaidMaimed).seat(victim).entry(target).seat(m_.attacker));
}

void ForceBattlesState::run_tasks() {
  while (!m_.tasks.empty() && !terminal()) {
    if (check_conversion()) return;  // a forced return may have filled the center
    const Task task = m_.tasks.front();
    m_.tasks.erase(m_.tasks.begin());
    if (start_task(task)) return;
  }
}

bool ForceBattlesState::start_task(const Task& task) {
  const Seat seat = task.seat;
  m_.actor = static_cast<int8_t>(seat);
  std::vector<Action> options;
  switch (task.kind) {
    case TaskKind::kReturnTarget:
      return return_target(seat);
    case TaskKind::kReward:
      m_.phase = Phase::kReward;
      break;
    case TaskKind::kKickTake:
      m_.phase = Phase::kKickTake;
      break;
    case TaskKind::kStance:
      m_.phase = Phase::kStance;
      break;
    case TaskKind::kEndRound:
      end_round();
      return false;
  }
  follow_up_actions(seat, options);
  return options.size() > 1;  // Pass alone is no decision
}

bool ForceBattlesState::return_target(Seat seat) {
  // F5: counters still in a target go back to spheres adjacent to it, at most 4 each, the
  // rest to the FORCE POOL. A paid Protect sends 1 and a paid Rage 2 to the pool first, and the
  // target's remaining counters may go to any sphere (seed, Protect and Rage). A free use (F14, the
  // bonus) put no counter in the target and costs none: the target returns as usual.
  const Player& p = player(seat);
  const bool paid = p.bonus == 0;
  Board& b = player(seat).board;
  Pile lifted;
  int from = -1;
  for (int t = 0; t < kTargets; ++t) {
    if (b.targets[t].total() > 0) {
      from = t;
      move_counters(b.targets[t], lifted, b.targets[t].total(), 1 - seat);
    }
  }
  if (from < 0) return false;
  const bool protect = paid && seat == m_.defender() && (p.used >> kProtect & 1);
  const bool rage = paid && seat == m_.attacker && (p.used >> kRage & 1);
  const int to_pool = std::min(lifted.total(), protect ? 1 : rage ? 2 : 0);
  move_counters(lifted, b.pool, to_pool, 1 - seat);
  uint8_t mask = 0;
  for (int s = 0; s < kSpheres; ++s) {
    if (protect || rage || adjacent(s, from)) mask = static_cast<uint8_t>(mask | 1u << s);
  }
  return start_placement(seat, lifted, mask, false, false);
}

void ForceBattlesState::turn_dark(Seat seat) {
  // Seed: a Light player who takes red counters turns Dark, "including losing all Light Side
  // GEAS"; ruling F24: their counters go to her FORCE POOL and keep their colour (F3).
  Player& p = player(seat);
  p.side = kDark;
  for (int g = 0; g < kGeasCount; ++g) {
    if (!geas_allowed(kDark, g))
      move_counters(p.board.geas[g], p.board.pool, p.board.geas[g].total(), seat);
  }
  if (p.free_geas >= 0 && !geas_allowed(kDark, p.free_geas)) p.free_geas = -1;
  say(Phrase(kSaidTurnsDark).seat(seat));
}

void ForceBattlesState::end_round() {
  m_.last_defender = static_cast<int8_t>(m_.defender());
  // Ruling F27: what a player's own pulls left is checked once the targets have emptied (the
  // opponent's depletion ended the battle at once, F40).
  if (check_board_ends()) return;
  const bool limit = m_.round_limit > 0 && m_.round >= m_.round_limit;
  if (limit || m_.round >= kRoundCap) {
    // F6: at the limit the player with more counters wins (ruling F21: the hard cap ends the
    // battle the same way). F41: each counts her own colour outside both pools, wherever it
    // stands, a gift to the other's center included.
    const int c0 = round_limit_count(0), c1 = round_limit_count(1);
    if (c0 == c1) {
      finish(2, Phrase(kSaidRoundLimitDraw).number(c0).number(c1));
    } else {
      const int w = c0 > c1 ? 0 : 1;
      finish(w, Phrase(kSaidRoundLimitWin).seat(w).number(c0).number(c1));
    }
    return;
  }
  start_round();
}

int ForceBattlesState::round_limit_count(Seat seat) const {
  return player(0).board.outside_pool_of(seat) + player(1).board.outside_pool_of(seat);
}

bool ForceBattlesState::check_conversion() {
  // Seed: "Once the Dark Side Player's entire center FORCE SPHERE has become the color of the
  // Light Side Player's Force (i.e. there are 4 counters in the center sphere)", the Dark player
  // turns and the Light player wins (F6), however the counters got there: a gift, or the Dark
  // player's own placement of Light counters she took or pulled (ruling F27: at once).
  for (Seat light = 0; light < 2; ++light) {
    const Seat dark = 1 - light;
    if (player(light).side != kLight || player(dark).side != kDark) continue;
    if (player(dark).board.spheres[kCenter].of(light) >= kSphereCapacity) {
      finish(light, Phrase(kSaidConversion).seat(dark).seat(light));
      return true;
    }
  }
  return false;
}

bool ForceBattlesState::check_depletion(Seat victim, uint8_t drained) {
  // F40: the opponent's Lightning, Choke or kick's take that leaves every sphere adjacent to a
  // target at 0 ends the battle at once. Only targets next to a sphere the opponent drained
  // count: the victim's own pulls are checked at the end of the round (F27).
  const Board& b = player(victim).board;
  for (int t = 0; t < kTargets; ++t) {
    bool touched = false, all_empty = true;
    for (int sp = 0; sp < kSpheres; ++sp) {
      if (!adjacent(sp, t)) continue;
      if (drained >> sp & 1) touched = true;
      if (b.spheres[sp].total() > 0) all_empty = false;
    }
    if (touched && all_empty) {
      finish(1 - victim, Phrase(kSaidDrained).seat(victim).entry(t).seat(1 - victim));
      return true;
    }
  }
  return false;
}

bool ForceBattlesState::check_board_ends() {
  // F6: the battle ends when every sphere adjacent to some target is 0 (this includes both
  // legs: each leg has one sphere).
  bool lost[2] = {false, false};
  int lost_target[2] = {-1, -1};
  for (Seat s = 0; s < 2; ++s) {
    const Board& b = player(s).board;
    for (int t = 0; t < kTargets && !lost[s]; ++t) {
      bool all_empty = true;
      for (int sp = 0; sp < kSpheres; ++sp) {
        if (adjacent(sp, t) && b.spheres[sp].total() > 0) all_empty = false;
      }
      if (all_empty) {
        lost[s] = true;
        lost_target[s] = t;
      }
    }
  }
  if (lost[0] && lost[1]) {
    finish(2, Phrase(kSaidBothBoardsEmpty));
  } else if (lost[0] || lost[1]) {
    const Seat loser = lost[0] ? 0 : 1;
    finish(1 - loser, Phrase(kSaidEmpty).seat(loser).entry(lost_target[loser]).seat(1 - loser));
  }
  return terminal();
}

}  // namespace duelhall::engine::force_battles
