// Step 3's effects and the answers to them: attacks (seed "Attacking", J4-J6), Force Defence and
// fumbles (J7, J8), Force powers (J10), Lightning (J11), Jokers (J12) and regaining (J13).
#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {
namespace {}  // namespace

bool JediDuelState::can_force_defend(Seat defender, Card card) const {
  // J7: a royal of the defender's Stance suit or a ♣ royal; never against a ♦ High attacker.
  return is_royal(card) && matches_stance(card, p(defender).area) && attack_.attacker_area != kHigh;
}

bool JediDuelState::fumble_allowed(Seat defender) const {
  // J8: only from a lower column than the attacker's.
  return tables_.column_of(p(defender).fatigue) < tables_.column_of(p(attack_.attacker).fatigue);
}

void JediDuelState::start_attack(Seat attacker, Card card, Seat target, Area declared) {
  take_from_hand(attacker, card);
  discard_.push_back(card);
  const PlayerState& defender = p(target);
  attack_ = {};
  attack_.kind = AttackKind::kNormal;
  attack_.attacker = attacker;
  attack_.target = target;
  attack_.card = card;
  attack_.attacker_area = p(attacker).area;
  // J4: a ♣ names its area and adds nothing; any other card attacks its suit's area.
  attack_.area = is_club(card) ? declared : area_of_suit(suit_of(card));
  attack_.attack_total =
      rank_of(card) + (is_club(card) ? 0 : tables_.speed_modifier(p(attacker).area, attack_.area));
  // J5: the defender's Stance value, plus the modifier when another area is attacked.
  attack_.defence_total = (defender.stance == kNoCard ? 0 : rank_of(defender.stance)) +
                          tables_.defence_modifier(defender.area, attack_.area);
  if (wants_events()) {
    say(Phrase(kSaidAttacks)
            .seat(attacker)
            .seat(target)
            .entry(attack_.area)
            .entry(card)
            .number(attack_.attack_total)
            .number(attack_.defence_total));
  }
  phase_ = Phase::kDefend;
  decider_ = target;
}

void JediDuelState::start_joker(Seat attacker, Card card, Seat target) {
  take_from_hand(attacker, card);
  discard_.push_back(card);
  attack_ = {};
  attack_.kind = AttackKind::kJoker;
  attack_.attacker = attacker;
  attack_.target = target;
  attack_.card = card;
  attack_.attacker_area = p(attacker).area;
  if (wants_events()) {
    say(Phrase(kSaidJokerStrike).seat(attacker).seat(target));
  }
  phase_ = Phase::kDefend;
  decider_ = target;
}

// J11: every opponent not in ♦ High and not shielded by a Queen, one at a time in seat order
// from the caster's left. J18: who is affected is fixed when the Lightning is cast.
void JediDuelState::start_lightning(Seat caster) {
  attack_ = {};
  attack_.kind = AttackKind::kLightning;
  attack_.attacker = caster;
  attack_.card = discard_.back();
  attack_.attacker_area = p(caster).area;
  lightning_left_ = {};
  for (Seat s = 0; s < num_seats(); ++s) {
    const PlayerState& other = p(s);
    if (s != caster && !other.out && other.area != kHigh && !other.shielded) lightning_left_.add(s);
  }
  if (wants_events()) say(Phrase(kSaidLightning).seat(caster));
  next_lightning_target();
}

void JediDuelState::next_lightning_target() {
  for (int i = 1; i < num_seats(); ++i) {
    const Seat s = (attack_.attacker + i) % num_seats();
    if (!lightning_left_.has(s)) continue;
    lightning_left_.remove(s);
    attack_.target = s;
    phase_ = Phase::kDefend;
    decider_ = s;
    return;
  }
  attack_ = {};
  after_action();
}

void JediDuelState::resolve_defence(Seat defender, Action action) {
  const Card card = action.arg(0);
  switch (action.kind) {
    case kNoDefence:
      if (attack_.kind == AttackKind::kNormal) {
        lose_fatigue(defender, attack_.defence_total - attack_.attack_total, kNoCard);
      } else {
        drop_to_column_bottom(defender,
                              attack_.kind == AttackKind::kJoker ? kByJoker : kByLightning);
      }
      break;
    case kClubDefence:  // J6: the ♣'s rank replaces the whole defence total
      take_from_hand(defender, card);
      discard_.push_back(card);
      owes_replacement_.add(defender);
      lose_fatigue(defender, rank_of(card) - attack_.attack_total, card);
      break;
    case kForceDefence:  // J7
      take_from_hand(defender, card);
      discard_.push_back(card);
      owes_replacement_.add(defender);
      if (wants_events()) {
        say(Phrase(kSaidNegates).seat(defender).entry(card));
      }
      if (fumble_allowed(defender)) {
        phase_ = Phase::kFumble;
        decider_ = defender;
        return;
      }
      break;
    default:
      break;
  }
  after_defence();
}

// J8: the defender's card goes to the attacker's Stance, the old Stance card to the defender.
void JediDuelState::resolve_fumble(Seat defender, Action action) {
  if (action.kind == kFumble) {
    const Card card = action.arg(0);
    PlayerState& attacker = p(attack_.attacker);
    const Card old = attacker.stance;
    auto& hand = p(defender).hand;
    for (Card& c : hand) {
      if (c == card) c = old;
    }
    attacker.stance = card;
    if (!is_club(card)) attacker.area = area_of_suit(suit_of(card));
    if (wants_events()) {
      say(Phrase(kSaidFumble)
              .seat(defender)
              .seat(attack_.attacker)
              .entry(card)
              .entry(old)
              .entry(attacker.area));
    }
  }
  after_defence();
}

void JediDuelState::after_defence() {
  if (phase_ == Phase::kOver) return;
  if (attack_.kind == AttackKind::kLightning) {
    next_lightning_target();
    return;
  }
  attack_ = {};
  after_action();
}

void JediDuelState::lose_fatigue(Seat seat, int amount, Card behind) {
  if (amount <= 0) {
    if (!wants_events()) return;
    if (behind == kNoCard) {
      say(Phrase(kSaidTooSlow).seat(seat));
    } else {
      say(Phrase(kSaidTooSlowBehind).seat(seat).entry(behind).number(rank_of(behind)));
    }
    return;
  }
  p(seat).fatigue -= amount;
  if (wants_events()) {
    Phrase hits = behind == kNoCard ? Phrase(kSaidHits).seat(attack_.attacker).seat(seat)
                                    : Phrase(kSaidHitsBehind)
                                          .seat(attack_.attacker)
                                          .seat(seat)
                                          .entry(behind)
                                          .number(rank_of(behind));
    say(hits.number(amount).number(p(seat).fatigue));
  }
  if (p(seat).fatigue <= 0) eliminate(seat);  // J9
}

void JediDuelState::drop_to_column_bottom(Seat seat, DropCause cause) {
  p(seat).fatigue = tables_.column_bottom(p(seat).fatigue);
  if (wants_events()) {
    say(Phrase(kSaidDrops).entry(cause).seat(seat).number(p(seat).fatigue));
  }
}

// J13: +2 when the suit matches the top of the discard pile before it, else +1; ♣ matches any
// suit, a Joker matches nothing; never past the top of the column.
void JediDuelState::regain(Seat seat, Card card) {
  const Card top = discard_.empty() ? kNoCard : discard_.back();
  const bool matches = top != kNoCard && !is_joker(card) && !is_joker(top) &&
                       (is_club(card) || is_club(top) || suit_of(card) == suit_of(top));
  take_from_hand(seat, card);
  discard_.push_back(card);
  PlayerState& player = p(seat);
  const int cap = tables_.column_top(player.fatigue);
  const int before = player.fatigue;
  player.fatigue = std::min(cap, player.fatigue + (matches ? 2 : 1));
  if (wants_events()) {
    say(Phrase(kSaidRegains).seat(seat).entry(card).number(player.fatigue - before));
  }
}

}  // namespace duelhall::engine::jedi_duel
