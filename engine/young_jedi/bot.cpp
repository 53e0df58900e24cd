#include "young_jedi/bot.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {
namespace {

uint16_t card_arg(Action a) {
  return static_cast<uint16_t>(a.arg(0) | a.arg(1) << 8);
}

// How much a card in hand is worth deploying now.
int deploy_value(const Player& me, const CardData& c) {
  if (c.type == CardType::kCharacter) {
    if (c.dueling) return 100 + c.power * 3 + c.damage;
    return c.damage == 0 ? -1 : 20 + c.power;  // a DAMAGE 0 character would only be discarded
  }
  // A weapon: worth it when one of my characters in play (or in hand) can use it.
  int best = -1;
  for (const std::vector<uint16_t>* zone : {&me.in_play, &me.hand}) {
    for (uint16_t other : *zone) {
      const CardData& user = card(other);
      if (auto dots = weapon_power_dots(c, user)) {
        best = std::max(best, (is_lightsaber(c) && user.dueling ? 60 : 10) + *dots * 5);
      }
    }
  }
  return best;
}

}  // namespace

Action HeuristicBot::choose(const State& state, Seat seat, Rng& rng) {
  std::vector<Action> legal = state.legal_actions(seat);
  if (legal.empty()) throw std::logic_error("bot asked to move with no legal action");
  const auto* yj = dynamic_cast<const YoungJediState*>(&state);
  if (!yj) return legal[rng.below(static_cast<uint32_t>(legal.size()))];
  const Table& t = yj->table();
  const Player& me = t.players[seat];
  const Player& them = t.players[1 - seat];

  // Scores every legal action; the best wins, ties at random.
  auto score = [&](Action a) -> int {
    switch (static_cast<ActionKind>(a.kind)) {
      case ActionKind::kConcede:
        return -1000;
      case ActionKind::kDeploy:
        return deploy_value(me, card(card_arg(a)));
      case ActionKind::kEndDeploy:
        return 0;
      case ActionKind::kInitiateDuel: {
        const CardData& duelist = card(me.in_play[a.arg(0)]);
        const CardData& saber = card(me.in_play[a.arg(1)]);
        const CardData& target = card(them.in_play[a.arg(2)]);
        int mine = duelist.power + weapon_power_dots(saber, duelist).value_or(0);
        if (target.damage == 0) return 50;  // Artoo and friends are simply discarded
        return mine - target.power + 5 - target.damage;
      }
      case ActionKind::kSkipDuel:
        return 0;
      case ActionKind::kDefend: {
        const CardData& c = card(me.in_play[a.arg(0)]);
        return c.power * 2 + c.damage + (c.dueling ? 5 : 0);
      }
      case ActionKind::kArmDefender: {
        const CardData& user = card(me.in_play[t.duel.character[seat]]);
        return 1 + weapon_power_dots(card(me.in_play[a.arg(0)]), user).value_or(0);
      }
      case ActionKind::kDefendUnarmed:
        return 0;
      case ActionKind::kAttack: {
        // Keep varied destiny numbers for blocking: attack with the most duplicated number;
        // a dueling text makes a card a better attack.
        const CardData& c = card(card_arg(a));
        int same = static_cast<int>(
            std::count_if(me.dueling_hand.begin(), me.dueling_hand.end(),
                          [&](uint16_t o) { return card(o).destiny == c.destiny; }));
        int text =
            c.dueling_text != DuelingText::kNone && c.dueling_text != DuelingText::kNotRecorded;
        return same * 2 + text * 3;
      }
      case ActionKind::kBlock:
        return 10 + (card(card_arg(a)).dueling_text != DuelingText::kNone);
      case ActionKind::kTakeHit:
        return 0;
      case ActionKind::kUseDuelingText:
        return 1;
      case ActionKind::kDrawCard:  // a card more, unless it is the last one (Y9)
        return me.draw.size() > 1 ? 2 : 0;
      case ActionKind::kDeclineDraw:
        return 1;
      case ActionKind::kDeployFromDeck:  // as from the hand, and better than the penalty
        return std::max(-4, deploy_value(me, card(card_arg(a))));
      case ActionKind::kEndSearch:  // deploying nothing costs the penalty DAMAGE (Y29)
        return -5;
      default:
        return 0;
    }
  };
  std::vector<Action> best;
  int best_score = 0;
  for (Action a : legal) {
    int s = score(a);
    if (best.empty() || s > best_score) {
      best = {a};
      best_score = s;
    } else if (s == best_score) {
      best.push_back(a);
    }
  }
  return best[rng.below(static_cast<uint32_t>(best.size()))];
}

}  // namespace duelhall::engine::young_jedi
