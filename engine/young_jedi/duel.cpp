// The lightsaber duel (seed 003, rulings Y5-Y8): defender, weapons, dueling hands, attacks and
// blocks, hits and "When dueling" texts, defeat, reshuffle and damage.
#include <algorithm>

#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {
namespace {

constexpr int kPowerBonus = 2;  // Y8: a power bonus the data gives no number for

bool is_anakin(const CardData& c) {
  return character_name(c) == "Anakin Skywalker";
}

}  // namespace

void YoungJediState::initiate_duel(int character, int weapon, int target) {
  int me = table_.active;
  table_.duel = Duel{};
  table_.duel.initiator = me;
  table_.duel.character[me] = character;
  table_.duel.weapon[me] = weapon;
  table_.duel.character[1 - me] = target;
  const Player& p = table_.players[me];
  say(Phrase(kSaidInitiatedDuel)
          .seat(me)
          .entry(p.in_play[character])
          .entry(p.in_play[weapon])
          .entry(table_.players[1 - me].in_play[target]));
  table_.phase = Phase::kChooseDefender;
  table_.to_act = 1 - me;
  // Y21: with no dueling character to swap in, the chosen one defends; nothing to decide.
  std::vector<Action> defenders;
  legal_actions(1 - me, defenders);
  if (defenders.size() == 1) settle_defender();
}

void YoungJediState::settle_defender() {
  int defender = 1 - table_.duel.initiator;
  const Player& p = table_.players[defender];
  say(Phrase(kSaidDefendsWith).seat(defender).entry(p.in_play[table_.duel.character[defender]]));
  // Seed 003: a character with printed DAMAGE 0 is simply discarded; no dueling hands.
  bool zero_damage = false;
  for (int seat = 0; seat < 2; ++seat) {
    Player& q = table_.players[seat];
    if (card(q.in_play[table_.duel.character[seat]]).damage == 0) zero_damage = true;
  }
  if (zero_damage) {
    for (int seat = 0; seat < 2; ++seat) {
      Player& q = table_.players[seat];
      int pos = table_.duel.character[seat];
      if (card(q.in_play[pos]).damage != 0) continue;
      say(Phrase(kSaidZeroDamageDiscarded).seat(seat).entry(q.in_play[pos]));
      q.discard.push_back(q.in_play[pos]);
      q.in_play.erase(q.in_play.begin() + pos);
    }
    table_.duel = Duel{};
    draw_step();
    return;
  }
  std::vector<Action> weapons;
  table_.phase = Phase::kDefenderWeapon;
  table_.to_act = defender;
  legal_actions(defender, weapons);
  if (weapons.size() == 1) start_duel();  // Y21: only "unarmed", nothing to decide
}

int YoungJediState::dueling_power(int seat) const {
  const Player& p = table_.players[seat];
  const Player& foe = table_.players[1 - seat];
  const CardData& me = card(p.in_play[table_.duel.character[seat]]);
  const CardData& them = card(foe.in_play[table_.duel.character[1 - seat]]);
  const CardData* weapon =
      table_.duel.weapon[seat] == kAbsent ? nullptr : &card(p.in_play[table_.duel.weapon[seat]]);
  int power = me.power;
  if (weapon) power += weapon_power_dots(*weapon, me).value_or(0);
  for (const Effect& e : me.effects) {
    switch (e.kind) {
      case EffectKind::kBonusWhenFighting:
        if (matches(e.match, them)) power += kPowerBonus;
        break;
      case EffectKind::kBonusIfFoughtThisTurn:  // Y14: the duelists are who fought this turn
        if (matches(e.match, them) || matches(e.match, me)) power += kPowerBonus;
        break;
      case EffectKind::kBonusWhenUsing:
        if (weapon && matches(e.match, *weapon)) power += kPowerBonus;
        break;
      default:
        break;
    }
  }
  // Yoda, Jedi Instructor: "adds power bonus to any other Jedi in a duel here", once per copy in
  // play (Y23). Another Jedi is another character: a dueling Yoda of any version gets none.
  for (size_t i = 0; i < p.in_play.size(); ++i) {
    const CardData& giver = card(p.in_play[i]);
    if (character_name(giver) == character_name(me)) continue;
    for (const Effect& e : giver.effects) {
      if (e.kind == EffectKind::kBonusToOtherJediInDuelHere && matches(e.match, me)) {
        power += kPowerBonus;
      }
    }
  }
  return std::max(power, 0);
}

void YoungJediState::start_duel() {
  int first = table_.duel.initiator;
  std::array<int, 2> power = {dueling_power(0), dueling_power(1)};
  // Seed 003: Anakin draws a destiny for his power; that card goes to the hand. Y9: all destiny
  // draws of the fight are made, then the decks are checked (both out: a tie).
  for (int seat : {first, 1 - first}) {
    Player& p = table_.players[seat];
    if (is_anakin(card(p.in_play[table_.duel.character[seat]])) && draw_into(seat, p.hand)) {
      power[seat] += card(p.hand.back()).destiny;
      p.known_hand.push_back(p.hand.back());  // a destiny draw is seen by both players
      say(named(Phrase(kSaidAnakinDestiny).seat(seat), p.hand.back()));
    }
  }
  if (settle_deck_outs()) return;
  for (int seat : {first, 1 - first}) {
    Player& p = table_.players[seat];
    int drawn = 0;
    // Dueling cards stay part of the draw deck: an empty deck here is no deck-out (seed 003).
    while (drawn < power[seat] && draw_into(seat, p.dueling_hand, true)) ++drawn;
    say(Phrase(kSaidDuelsAtPower).seat(seat).number(power[seat]).number(drawn));
  }
  next_attack(first);
}

void YoungJediState::next_attack(int seat) {
  // Y5: a player without dueling cards can neither attack nor block; the other goes on alone.
  for (int s : {seat, 1 - seat}) {
    if (!table_.players[s].dueling_hand.empty()) {
      table_.phase = Phase::kAttack;
      table_.to_act = s;
      table_.duel.attack_card = kAbsent;
      return;
    }
  }
  end_duel(kAbsent);
}

void YoungJediState::play_attack(int seat, uint16_t c) {
  Player& p = table_.players[seat];
  p.dueling_hand.erase(std::find(p.dueling_hand.begin(), p.dueling_hand.end(), c));
  p.dueling_pile.push_back(c);
  table_.duel.attack_card = c;
  say(named(Phrase(kSaidAttackedWith).seat(seat), c));
  if (table_.players[1 - seat].dueling_hand.empty()) {
    score_hit(seat);
    return;
  }
  table_.phase = Phase::kBlock;
  table_.to_act = 1 - seat;
}

void YoungJediState::play_block(int seat, uint16_t c) {
  Player& p = table_.players[seat];
  p.dueling_hand.erase(std::find(p.dueling_hand.begin(), p.dueling_hand.end(), c));
  p.dueling_pile.push_back(c);
  table_.duel.attack_card = c;  // the block becomes the next attack
  say(named(Phrase(kSaidBlockedWith).seat(seat), c));
  if (table_.players[1 - seat].dueling_hand.empty()) {
    score_hit(seat);
    return;
  }
  table_.to_act = 1 - seat;
}

bool YoungJediState::uses_lightsaber(int seat) const {
  int w = table_.duel.weapon[seat];
  return w != kAbsent && is_lightsaber(card(table_.players[seat].in_play[w]));
}

bool YoungJediState::offers_dueling_text(int seat, int c) const {
  const Player& p = table_.players[seat];
  switch (card(static_cast<uint16_t>(c)).dueling_text) {
    case DuelingText::kDrawOne:
    case DuelingText::kDiscardToDrawTwo:
      return !p.draw.empty();  // drawing for the dueling hand needs a card to draw
    case DuelingText::kRemoveHit:
      return p.hits > 0;
    case DuelingText::kDiscardForTwoExtraHits:
      return true;
    default:
      return false;
  }
}

void YoungJediState::score_hit(int hitter) {
  int hit = 1 - hitter;
  int c = table_.duel.attack_card;
  table_.players[hit].hits += 1;
  say(Phrase(kSaidScoredHit).seat(hitter).seat(hit));
  // Seed 003: the hitting card's "When dueling" text works only for a lightsaber user.
  if (uses_lightsaber(hitter) &&
      card(static_cast<uint16_t>(c)).dueling_text == DuelingText::kExtraHit) {
    table_.players[hit].hits += 1;
    say(named(Phrase(kSaidExtraHit), static_cast<uint16_t>(c)));
  }
  const CardData& victim = card(table_.players[hit].in_play[table_.duel.character[hit]]);
  if (table_.players[hit].hits >= victim.damage) {
    end_duel(hit);
    return;
  }
  if (uses_lightsaber(hitter) && offers_dueling_text(hitter, c)) {
    table_.phase = Phase::kDuelingText;
    table_.to_act = hitter;
    table_.duel.text_card = c;
    table_.duel.text_owner = hitter;
    return;
  }
  after_hit(hit);
}

void YoungJediState::use_dueling_text() {
  int me = table_.duel.text_owner;
  int foe = 1 - me;
  Player& p = table_.players[me];
  const uint16_t c = static_cast<uint16_t>(table_.duel.text_card);
  auto discard_this = [&] {
    auto it = std::find(p.dueling_pile.begin(), p.dueling_pile.end(), c);
    p.dueling_pile.erase(it);
    p.discard.push_back(c);
  };
  auto draw_for_duel = [&](int n) {
    for (int i = 0; i < n && draw_into(me, p.dueling_hand, true); ++i) {
    }
  };
  switch (card(c).dueling_text) {
    case DuelingText::kDrawOne:
      draw_for_duel(1);
      break;
    case DuelingText::kDiscardToDrawTwo:
      discard_this();
      draw_for_duel(2);
      break;
    case DuelingText::kRemoveHit:
      p.hits -= 1;
      break;
    case DuelingText::kDiscardForTwoExtraHits:
      discard_this();
      table_.players[foe].hits += 2;
      break;
    default:
      break;
  }
  say(named(Phrase(kSaidUsedDuelingText).seat(me), c));
  table_.duel.text_card = kAbsent;
  table_.duel.text_owner = kAbsent;
  const CardData& victim = card(table_.players[foe].in_play[table_.duel.character[foe]]);
  if (table_.players[foe].hits >= victim.damage) {
    end_duel(foe);
    return;
  }
  after_hit(foe);
}

void YoungJediState::after_hit(int hit_seat) {
  table_.duel.text_card = kAbsent;
  table_.duel.text_owner = kAbsent;
  next_attack(hit_seat);  // the player who took the hit attacks next
}

int YoungJediState::damage_for_defeat(int defeated) const {
  const Player& p = table_.players[defeated];
  const Player& winner = table_.players[1 - defeated];
  const CardData& loser = card(p.in_play[table_.duel.character[defeated]]);
  int damage = loser.damage;
  int w = table_.duel.weapon[defeated];
  for (const Effect& e : loser.effects) {
    if (e.kind == EffectKind::kDamageWhenUsing && w != kAbsent &&
        matches(e.match, card(p.in_play[w]))) {
      damage += e.amount;
    }
  }
  for (const Effect& e : card(winner.in_play[table_.duel.character[1 - defeated]]).effects) {
    if (e.kind == EffectKind::kAddsDamageToDefeated) damage += e.amount;
  }
  return std::max(damage, 0);
}

void YoungJediState::end_duel(int defeated) {
  int damage = 0;
  int damaged = kAbsent;
  bool winner_draws = false;
  if (defeated != kAbsent) {
    damage = damage_for_defeat(defeated);
    damaged = defeated;
    const Player& w = table_.players[1 - defeated];
    for (const Effect& e : card(w.in_play[table_.duel.character[1 - defeated]]).effects) {
      if (e.kind == EffectKind::kDrawOnDefeat) winner_draws = true;
    }
    // Discard the defeated character and the weapon it used (higher position first).
    Player& p = table_.players[defeated];
    int c = table_.duel.character[defeated];
    int wpn = table_.duel.weapon[defeated];
    say(Phrase(kSaidDefeated).seat(defeated).entry(p.in_play[c]));
    p.discard.push_back(p.in_play[c]);
    if (wpn != kAbsent) p.discard.push_back(p.in_play[wpn]);
    for (int pos : {std::max(c, wpn), std::min(c, wpn)}) {
      if (pos != kAbsent) p.in_play.erase(p.in_play.begin() + pos);
    }
  } else {
    // Seed 003: nobody defeated; the one with more hit tokens takes that many, a tie takes none.
    int h0 = table_.players[0].hits;
    int h1 = table_.players[1].hits;
    if (h0 != h1) {
      damaged = h0 > h1 ? 0 : 1;
      damage = std::max(h0, h1);
    }
    say(Phrase(kSaidBothOutOfDuelingCards).number(h0).number(h1));
  }
  // All dueling cards go back into their owners' draw decks before any damage (seed 003).
  for (int seat : {table_.duel.initiator, 1 - table_.duel.initiator}) reshuffle_dueling_cards(seat);
  if (damaged != kAbsent && damage > 0) {
    say(Phrase(kSaidTakesDamage).seat(damaged).number(damage));
    take_damage(damaged, damage);
  }
  for (Player& p : table_.players) p.hits = 0;
  table_.duel = Duel{};
  if (settle_deck_outs()) return;  // Y9: immediate; the winner draws nothing more
  if (winner_draws && !table_.players[1 - defeated].draw.empty()) {
    // Aurra Sing, Formidable Adversary: "you may draw a card". Y9: offered to her, never made
    // for her (her last card would lose); the draw step follows her answer.
    table_.phase = Phase::kOptionalDraw;
    table_.to_act = 1 - defeated;
    return;
  }
  draw_step();
}

void YoungJediState::reshuffle_dueling_cards(int seat) {
  Player& p = table_.players[seat];
  if (p.dueling_hand.empty() && p.dueling_pile.empty()) return;
  p.draw.insert(p.draw.end(), p.dueling_hand.begin(), p.dueling_hand.end());
  p.draw.insert(p.draw.end(), p.dueling_pile.begin(), p.dueling_pile.end());
  p.dueling_hand.clear();
  p.dueling_pile.clear();
  shuffle(std::span<uint16_t>(p.draw), "reshuffle dueling cards " + seat_ref(seat));
}

}  // namespace duelhall::engine::young_jedi
