// The legal actions of each decision, sorted by their code (J3, J4, J7, J8, J10-J14, J16, J21,
// J24-J26).
#include <algorithm>

#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {
namespace {
uint8_t u8(int v) {
  return static_cast<uint8_t>(v);
}
}  // namespace

SeatMask JediDuelState::pending() const {
  return phase_ == Phase::kOver ? SeatMask{} : SeatMask::only(decider_);
}

// J3: any card but a Joker; a ♣ is declared to one of the three areas.
void JediDuelState::stance_actions(Seat seat, Kind kind, std::vector<Action>& out) const {
  for (Card c : p(seat).hand) {
    if (is_joker(c)) continue;
    if (is_club(c)) {
      for (int a = kHigh; a <= kLow; ++a) out.push_back(Action::make(kind, c, u8(a)));
    } else {
      out.push_back(Action::make(kind, c));
    }
  }
}

void JediDuelState::step3_actions(Seat seat, std::vector<Action>& out) const {
  const PlayerState& me = p(seat);
  if (me.hand.empty()) {  // J16
    out.push_back(Action::make(kPassAction));
    return;
  }
  const bool sword_arm_free = me.area == kMiddle || me.area == kLow;  // J11, J12
  std::vector<Card> royals;
  int jokers = 0;
  for (Card c : me.hand) {
    out.push_back(Action::make(kDiscard, c));  // J13
    if (is_joker(c)) {
      ++jokers;
    } else if (is_royal(c)) {
      royals.push_back(c);
    }
    for (Seat t = 0; t < num_seats(); ++t) {
      const PlayerState& them = p(t);
      if (t == seat || them.out) continue;
      // J21: a Queen's shield makes attacks on its holder pointless unless made from ♦ High.
      const bool reachable = !them.shielded || me.area == kHigh;
      if (is_joker(c)) {
        if (sword_arm_free && reachable) out.push_back(Action::make(kJokerAttack, c, u8(t)));
      } else if (!is_royal(c)) {
        if (!reachable) continue;
        if (is_club(c)) {
          for (int a = kHigh; a <= kLow; ++a) out.push_back(Action::make(kAttack, c, u8(t), u8(a)));
        } else {
          out.push_back(Action::make(kAttack, c, u8(t)));
        }
      } else if (rank_of(c) == 13 && matches_stance(c, me.area) && them.area != kHigh) {
        out.push_back(Action::make(kForceSense, c, u8(t)));  // J10
      }
    }
    if (is_royal(c) && matches_stance(c, me.area)) {
      // J26: Heal has no target, so a High Stance does not stop it.
      if (rank_of(c) == 11) out.push_back(Action::make(kForceHeal, c));
      if (rank_of(c) == 12) out.push_back(Action::make(kForcePush, c));
    }
  }
  if (sword_arm_free && jokers == 2) out.push_back(Action::make(kLightningJokers));
  if (sword_arm_free && royals.size() >= 4) {
    std::sort(royals.begin(), royals.end());
    const size_t n = royals.size();
    for (size_t a = 0; a < n; ++a)
      for (size_t b = a + 1; b < n; ++b)
        for (size_t c = b + 1; c < n; ++c)
          for (size_t d = c + 1; d < n; ++d)
            out.push_back(
                Action::make(kLightningRoyals, royals[a], royals[b], royals[c], royals[d]));
  }
}

void JediDuelState::defence_actions(Seat seat, std::vector<Action>& out) const {
  out.push_back(Action::make(kNoDefence));
  for (Card c : p(seat).hand) {
    // J6: a ♣ stands in for the Stance against normal attacks only.
    if (attack_.kind == AttackKind::kNormal && is_club(c)) {
      out.push_back(Action::make(kClubDefence, c));
    }
    if (can_force_defend(seat, c)) out.push_back(Action::make(kForceDefence, c));
  }
}

void JediDuelState::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (phase_ == Phase::kOver || seat != decider_) return;
  const PlayerState& me = p(seat);
  switch (phase_) {
    case Phase::kSetup:
      stance_actions(seat, kSetupStance, out);
      break;
    case Phase::kStance:
      stance_actions(seat, kStance, out);
      break;
    case Phase::kAction:
      step3_actions(seat, out);
      break;
    case Phase::kDefend:
      defence_actions(seat, out);
      break;
    case Phase::kFumble:
      out.push_back(Action::make(kNoFumble));
      for (Card c : me.hand) {
        if (!is_joker(c)) out.push_back(Action::make(kFumble, c));  // J8
      }
      break;
    case Phase::kSense:  // J24: any card of the caster's hand, whatever its size
      out.push_back(Action::make(kNoSwap));
      for (Card mine : me.hand) {
        for (Card theirs : p(sense_target_).hand) {
          out.push_back(Action::make(kSenseSwap, mine, theirs));
        }
      }
      break;
    case Phase::kReturn:  // J25: one of the three just drawn, the last cards of the hand
      for (size_t i = me.hand.size() - static_cast<size_t>(low_drawn_); i < me.hand.size(); ++i) {
        out.push_back(Action::make(kReturnCard, me.hand[i]));
      }
      break;
    case Phase::kOver:
      break;
  }
  std::sort(out.begin(), out.end());
}

}  // namespace duelhall::engine::jedi_duel
