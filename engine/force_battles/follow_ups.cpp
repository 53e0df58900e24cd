// Decisions owed after the rolls: the defender's reward, placing counters, stances, the Light
// player's gift and a kick's counter.
#include <algorithm>

#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {
namespace {

constexpr int kGiveAtt = kSpheres;                   // GIVE location 7
constexpr int kGiveDef = kSpheres + 1;               // 8
constexpr int kGiveGeas = kSpheres + 2;              // 9..21
constexpr int kGiveTarget = kGiveGeas + kGeasCount;  // 22..27: the targets she pulled into
constexpr int kGiveLocations = kGiveTarget + kTargets;
constexpr uint8_t kAllSpheres = (1u << kSpheres) - 1;

template <typename B>
auto give_source(B& b, int location) -> decltype(&b.att) {
  if (location < kSpheres) return &b.spheres[location];
  if (location == kGiveAtt) return &b.att;
  if (location == kGiveDef) return &b.def;
  if (location >= kGiveTarget) return &b.targets[location - kGiveTarget];
  return &b.geas[location - kGiveGeas];
}

}  // namespace

int ForceBattlesState::kick_take_from(Seat kicker) const {
  const Seat other = 1 - kicker;
  const Board& b = player(other).board;
  if (player(kicker).side == kDark) {
    // Seed: "1 FORCE POWER of your opponent's color", from the opponent's FORCE POOL.
    return b.pool.of(other) > 0 ? kSpheres : -1;
  }
  if (player(other).side != kDark) return -1;
  // Seed: a Light kicker gets back 1 of her own colour from the Dark player's side, "even in the
  // FORCE POOL". Ruling F25: the pool first, then the spheres with the center last.
  if (b.pool.of(kicker) > 0) return kSpheres;
  static constexpr int kOrder[kSpheres] = {kHL, kHR, kLT, kRT, kLL, kRL, kCenter};
  for (int s : kOrder) {
    if (b.spheres[s].of(kicker) > 0) return s;
  }
  return -1;
}

void ForceBattlesState::follow_up_actions(Seat seat, std::vector<Action>& out) const {
  const Player& p = player(seat);
  const Seat other = 1 - seat;
  const Player& o = player(other);
  switch (m_.phase) {
    case Phase::kReward:
      out.push_back(Action::make(kPass));  // seed: "You do not need to take FORCE POWER"
      if (p.board.pool.total() > 0) out.push_back(Action::make(kRegain, 0));
      // Seed: the Dark side may take the opponent's counters from the opponent's pool; a Light
      // player can take red counters but then turns Dark. Light does not take from Light (F31).
      if (o.board.pool.of(other) > 0 && (p.side == kDark || o.side == kDark)) {
        out.push_back(Action::make(kRegain, 1));
      }
      add_geas_uses(seat, kHeal, out);
      break;
    case Phase::kPlacement:
      for (int s = 0; s < kSpheres; ++s) {
        if (!(m_.place_mask >> s & 1)) continue;
        const int room = kSphereCapacity - p.board.spheres[s].total();
        for (int n = 1; n <= std::min(room, m_.buffer.total()); ++n) {
          if (place_ok(s, n)) out.push_back(Action::make(kPlace, uint8_t(s), uint8_t(n)));
        }
      }
      if (m_.place_pool) out.push_back(Action::make(kPoolRest));
      break;
    case Phase::kStance:
      out.push_back(Action::make(kStanceKeep));
      // Rulings F10, F30: a new stance re-places the spheres' counters, none left empty.
      if (p.board.sphere_total() >= kSpheres) out.push_back(Action::make(kStanceRearrange));
      break;
    case Phase::kGift:
      gift_actions(seat, out);
      break;
    case Phase::kKickTake:
      out.push_back(Action::make(kPass));
      if (kick_take_from(seat) >= 0) out.push_back(Action::make(kTake, 0));
      // Seed: the Light kicker gets one of her colour "(unless you want to turn to the Dark
      // Side)": she may take a red counter from the Dark player's FORCE POOL instead, as in
      // the reward (F31), and turns Dark.
      if (p.side == kLight && o.side == kDark && o.board.pool.of(other) > 0) {
        out.push_back(Action::make(kTake, 1));
      }
      break;
    default:
      break;
  }
}

void ForceBattlesState::gift_actions(Seat seat, std::vector<Action>& out) const {
  // F39: in place of her DEF roll (Pass rolls it), once per round, a Light defender facing a
  // Dark attacker may give one FORCE POWER "from anywhere except the FORCE POOL" into the Dark
  // player's center sphere "if there is enough space".
  out.push_back(Action::make(kPass));
  const Player& p = player(seat);
  const Player& o = player(1 - seat);
  if (m_.gift_given || seat != m_.defender() || p.side != kLight || o.side != kDark) return;
  if (o.board.spheres[kCenter].total() >= kSphereCapacity) return;
  // Anywhere but the pool includes a target her pulls filled (F39).
  for (int loc = 0; loc < kGiveLocations; ++loc) {
    if (give_source(p.board, loc)->total() > 0) out.push_back(Action::make(kGive, uint8_t(loc)));
  }
}

void ForceBattlesState::apply_gift(Seat seat, Action action) {
  if (action.kind == kGive) {
    const Seat other = 1 - seat;
    move_counters(*give_source(player(seat).board, action.arg(0)),
                  player(other).board.spheres[kCenter], 1, seat);
    m_.gift_given = true;
    say(Phrase(kSaidGives).seat(seat).seat(other));
    if (check_conversion()) return;  // F6: the fourth Light counter converts at once
  }
  roll_battle();
}

bool ForceBattlesState::place_ok(int sphere, int n) const {
  if (!m_.place_spread) return true;
  // Enough counters must remain for every other empty sphere.
  const Board& b = player(m_.actor).board;
  int empty_others = 0;
  for (int s = 0; s < kSpheres; ++s) {
    if (s != sphere && b.spheres[s].total() == 0) ++empty_others;
  }
  return m_.buffer.total() - n >= empty_others;
}

bool ForceBattlesState::start_placement(Seat seat, Pile counters, uint8_t mask, bool pool,
                                        bool spread) {
  m_.phase = Phase::kPlacement;
  m_.actor = static_cast<int8_t>(seat);
  m_.buffer = counters;
  m_.place_mask = mask;
  m_.place_pool = pool;
  m_.place_spread = spread;
  return continue_placement();
}

bool ForceBattlesState::continue_placement() {
  Board& b = player(m_.actor).board;
  const Seat other = 1 - m_.actor;
  while (m_.buffer.total() > 0) {
    int with_room = 0, only = -1;
    for (int s = 0; s < kSpheres; ++s) {
      if ((m_.place_mask >> s & 1) && b.spheres[s].total() < kSphereCapacity) {
        ++with_room;
        only = s;
      }
    }
    if (with_room == 0) {
      // F1: whatever would go past 4 goes to the FORCE POOL.
      move_counters(m_.buffer, b.pool, m_.buffer.total(), other);
      break;
    }
    if (with_room > 1 || m_.place_pool || m_.place_spread || only < 0) return true;
    const int n = std::min(m_.buffer.total(), kSphereCapacity - b.spheres[only].total());
    move_counters(m_.buffer, b.spheres[only], n, other);
  }
  m_.place_mask = 0;
  m_.place_pool = m_.place_spread = false;
  return false;
}

void ForceBattlesState::heal(Seat seat) {
  // Seed (Heal): "ALL FORCE SPHERES now have 3 FORCE POWER", from the FORCE POOL as far as it
  // goes; ruling F26: spheres above 3 give their extra to the pool first.
  Board& b = player(seat).board;
  for (Pile& s : b.spheres) {
    if (s.total() > 3) move_counters(s, b.pool, s.total() - 3, 1 - seat);
  }
  for (Pile& s : b.spheres) {
    const int n = std::min(3 - s.total(), b.pool.total());
    if (n > 0) move_counters(b.pool, s, n, seat);
  }
}

void ForceBattlesState::apply_follow_up(Seat seat, Action action) {
  Player& p = player(seat);
  const Seat other = 1 - seat;
  Board& ob = player(other).board;
  bool waiting = false;
  switch (action.kind) {
    case kUseGeas:
      apply_geas(seat, action);
      break;  // Heal
    case kRegain: {
      // F5: D6 counters back, as many as there are, to spheres or the pool.
      const int d = die(seat, "D6 regain");
      show_roll(seat, RollFor::kRegain, d);
      Pile taken;
      if (action.arg(0) == 0) {
        move_counters(p.board.pool, taken, std::min(d, p.board.pool.total()), seat);
      } else {
        move_counters(ob.pool, taken, std::min<int>(d, ob.pool.of(other)), other);
        if (p.side == kLight) turn_dark(seat);
      }
      say(action.arg(0) == 0
              ? Phrase(kSaidRegains).seat(seat).number(taken.total())
              : Phrase(kSaidRegainsFromPool).seat(seat).number(taken.total()).seat(other));
      waiting = start_placement(seat, taken, kAllSpheres, true, false);
      break;
    }
    case kPlace:
      say(Phrase(kSaidPlaces).seat(seat).number(action.arg(1)).entry(action.arg(0)));
      move_counters(m_.buffer, p.board.spheres[action.arg(0)], action.arg(1), other);
      waiting = continue_placement();
      break;
    case kPoolRest:
      say(Phrase(kSaidPutsInPool).seat(seat).number(m_.buffer.total()));
      move_counters(m_.buffer, p.board.pool, m_.buffer.total(), other);
      waiting = continue_placement();
      break;
    case kStanceRearrange: {
      Pile lifted;
      for (Pile& s : p.board.spheres) move_counters(s, lifted, s.total(), other);
      say(Phrase(kSaidNewStance).seat(seat));
      waiting = start_placement(seat, lifted, kAllSpheres, false, true);
      break;
    }
    case kTake: {
      Pile taken;
      if (action.arg(0) == 1) {
        move_counters(ob.pool, taken, 1, other);
        say(Phrase(kSaidTakesRed).seat(seat).seat(other));
        turn_dark(seat);
        waiting = start_placement(seat, taken, kAllSpheres, true, false);
        break;
      }
      const int from = kick_take_from(seat);
      if (from < 0) break;  // not listed then
      Pile& source = from >= kSpheres ? ob.pool : ob.spheres[static_cast<size_t>(from)];
      // The Dark kicker takes the opponent's colour; the Light kicker her own.
      move_counters(source, taken, 1, p.side == kDark ? other : seat);
      say(Phrase(kSaidTakes).seat(seat).seat(other));
      if (from < kSpheres && check_depletion(other, static_cast<uint8_t>(1u << from))) {
        move_counters(taken, p.board.pool, 1, seat);  // F40: the battle is over, nothing placed
        return;
      }
      waiting = start_placement(seat, taken, kAllSpheres, true, false);
      break;
    }
    case kStanceKeep:
      say(Phrase(kSaidKeepsStance).seat(seat));
      break;
    default:
      break;  // Pass
  }
  // A placement may have filled the Dark center (conversion, F6).
  if (terminal() || check_conversion()) return;
  if (!waiting) run_tasks();
}

}  // namespace duelhall::engine::force_battles
