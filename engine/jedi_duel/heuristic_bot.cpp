#include "jedi_duel/heuristic_bot.hpp"

#include <stdexcept>

#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {
namespace {

// How much a card in hand is worth keeping: Jokers and royals are the Force; low cards are fast
// attacks (J4: a lower total hits harder).
double keep_value(Card c) {
  if (is_joker(c)) return 8;
  if (is_royal(c)) return 5;
  return (14 - rank_of(c)) / 3.0 + (is_club(c) ? 1 : 0);
}

double loss_to_bottom(const JediDuelState& s, Seat seat) {
  const int f = s.player(seat).fatigue;
  return f - s.tables().column_bottom(f);
}

double score_step3(const JediDuelState& s, Seat me, Action a) {
  const PlayerState& mine = s.player(me);
  const Tables& t = s.tables();
  const Card c = a.arg(0);
  switch (a.kind) {
    case kAttack: {
      const PlayerState& target = s.player(a.arg(1));
      const Area area = is_club(c) ? static_cast<Area>(a.arg(2)) : area_of_suit(suit_of(c));
      const int attack = rank_of(c) + (is_club(c) ? 0 : t.speed_modifier(mine.area, area));
      const int defence =
          (target.stance ? rank_of(target.stance) : 0) + t.defence_modifier(target.area, area);
      const int damage = defence - attack;
      if (damage <= 0) return -10;
      return damage + (damage >= target.fatigue ? 10 : 0) - keep_value(c) / 4;
    }
    case kJokerAttack:
      return loss_to_bottom(s, a.arg(1)) - 2;
    case kLightningJokers:
    case kLightningRoyals: {
      double total = 0;
      for (Seat o = 0; o < s.num_seats(); ++o) {
        const PlayerState& other = s.player(o);
        if (o != me && !other.out && other.area != kHigh && !other.shielded) {
          total += loss_to_bottom(s, o);
        }
      }
      return total - 6;
    }
    case kForceHeal:
      return t.column_top(mine.fatigue) - mine.fatigue - 1.5;
    case kForcePush:
      return t.column_of(mine.fatigue) == 0 ? 2.5 : 0.5;
    case kForceSense:
      return 0.8;
    case kDiscard: {
      const Card top = s.discard_pile().empty() ? kNoCard : s.discard_pile().back();
      const bool match = top && !is_joker(c) && !is_joker(top) &&
                         (is_club(c) || is_club(top) || suit_of(c) == suit_of(top));
      const int gain = std::min(t.column_top(mine.fatigue) - mine.fatigue, match ? 2 : 1);
      return gain - keep_value(c) / 3;
    }
    default:
      return 0;
  }
}

double score_defence(const JediDuelState& s, Seat me, Action a) {
  const PendingAttack& atk = s.attack();
  const int fatigue = s.player(me).fatigue;
  double hurt = 0;
  if (atk.kind == AttackKind::kNormal) {
    hurt = std::max(0, atk.defence_total - atk.attack_total);
  } else {
    hurt = loss_to_bottom(s, me);
  }
  if (hurt >= fatigue) hurt += 30;  // staying alive matters most
  switch (a.kind) {
    case kNoDefence:
      return -hurt;
    case kClubDefence: {
      double left = std::max(0, rank_of(a.arg(0)) - atk.attack_total);
      if (left >= fatigue) left += 30;
      return -left - 1;
    }
    case kForceDefence:
      return -3;
    default:
      return -hurt;
  }
}

double score(const JediDuelState& s, Seat me, Action a) {
  const Card c = a.arg(0);
  switch (s.phase()) {
    case Phase::kSetup:
    case Phase::kStance: {
      // A low Stance card defends fastest (J5); keep clubs for defence and royals for the Force.
      double v = -rank_of(c) - (is_club(c) ? 3 : 0) - (is_royal(c) ? 8 : 0);
      if (is_club(c) && a.arg(1) != kMiddle) v -= 0.5;  // Middle has the smallest modifier
      return v;
    }
    case Phase::kAction:
      return score_step3(s, me, a);
    case Phase::kDefend:
      return score_defence(s, me, a);
    case Phase::kFumble:
      // Leave the attacker a slow (high) Stance; keep royals.
      return a.kind == kNoFumble ? 0 : (is_royal(c) ? 0.5 : 1 + rank_of(c) / 13.0);
    case Phase::kSense:
      return a.kind == kNoSwap ? 0 : keep_value(a.arg(1)) - keep_value(c);
    case Phase::kReturn:
      return -keep_value(c);
    case Phase::kOver:
      break;
  }
  return 0;
}

}  // namespace

Action HeuristicBot::choose(const State& state, Seat seat, Rng& rng) {
  const auto* jedi = dynamic_cast<const JediDuelState*>(&state);
  if (!jedi) return RandomBot().choose(state, seat, rng);
  std::vector<Action> legal;
  state.legal_actions(seat, legal);
  if (legal.empty()) throw std::logic_error("bot asked to move with no legal action");
  Action best = legal.front();
  double best_score = score(*jedi, seat, best);
  for (size_t i = 1; i < legal.size(); ++i) {
    const double v = score(*jedi, seat, legal[i]);
    if (v > best_score) {
      best = legal[i];
      best_score = v;
    }
  }
  return best;
}

}  // namespace duelhall::engine::jedi_duel
