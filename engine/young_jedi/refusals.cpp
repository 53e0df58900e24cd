// Why an action is refused: malformed codes, and for legal-looking ones the rule they break.
#include <algorithm>

#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {
namespace {

constexpr uint8_t kLastKind = static_cast<uint8_t>(ActionKind::kEndSearch);

// The decision each phase asks for, as said in a refusal.
const char* decision_of(Phase phase) {
  switch (phase) {
    case Phase::kChoosePlanet:
      return "choose the planet";
    case Phase::kDeploy:
      return "deploy or end deploying";
    case Phase::kChooseDuel:
      return "initiate a duel or not";
    case Phase::kChooseDefender:
      return "choose the defending character";
    case Phase::kDefenderWeapon:
      return "choose the defender's weapon or none";
    case Phase::kAttack:
      return "attack with a dueling card";
    case Phase::kBlock:
      return "block or take the hit";
    case Phase::kDuelingText:
      return "use the dueling text or not";
    case Phase::kOptionalDraw:
      return "draw a card or not";
    case Phase::kSearchDrawDeck:
      return "deploy a card from your draw deck or none";
    case Phase::kOver:
      return "nothing";
  }
  return "nothing";
}

bool belongs_to(ActionKind kind, Phase phase) {
  switch (kind) {
    case ActionKind::kChoosePlanet:
      return phase == Phase::kChoosePlanet;
    case ActionKind::kDeploy:
    case ActionKind::kEndDeploy:
    case ActionKind::kConcede:
      return phase == Phase::kDeploy;
    case ActionKind::kInitiateDuel:
    case ActionKind::kSkipDuel:
      return phase == Phase::kChooseDuel;
    case ActionKind::kDefend:
      return phase == Phase::kChooseDefender;
    case ActionKind::kArmDefender:
    case ActionKind::kDefendUnarmed:
      return phase == Phase::kDefenderWeapon;
    case ActionKind::kAttack:
      return phase == Phase::kAttack;
    case ActionKind::kBlock:
    case ActionKind::kTakeHit:
      return phase == Phase::kBlock;
    case ActionKind::kUseDuelingText:
    case ActionKind::kDeclineDuelingText:
      return phase == Phase::kDuelingText;
    case ActionKind::kDrawCard:
    case ActionKind::kDeclineDraw:
      return phase == Phase::kOptionalDraw;
    case ActionKind::kDeployFromDeck:
    case ActionKind::kEndSearch:
      return phase == Phase::kSearchDrawDeck;
  }
  return false;
}

bool takes_card(ActionKind kind) {
  return kind == ActionKind::kDeploy || kind == ActionKind::kAttack || kind == ActionKind::kBlock ||
         kind == ActionKind::kDeployFromDeck;
}

}  // namespace

uint8_t YoungJediState::last_action_kind() const {
  return kLastKind;
}

ApplyResult YoungJediState::explain_refusal(Seat seat, Action action) const {
  const auto kind = static_cast<ActionKind>(action.kind);
  const uint16_t c = static_cast<uint16_t>(action.arg(0) | action.arg(1) << 8);
  if (takes_card(kind) && c >= catalogue().size()) {
    return ApplyResult::refused(RefusalCode::kMalformed, "no card " + std::to_string(c));
  }
  auto illegal = [](std::string why) {
    return ApplyResult::refused(RefusalCode::kIllegal, std::move(why));
  };
  if (!belongs_to(kind, table_.phase)) {
    return illegal(std::string("not now: it is time to ") + decision_of(table_.phase));
  }
  const Player& me = table_.players[seat];
  switch (kind) {
    case ActionKind::kDeploy: {
      if (std::find(me.hand.begin(), me.hand.end(), c) == me.hand.end()) {
        return illegal(std::string(card(c).title) + " is not in your hand");
      }
      if (card(c).type == CardType::kBattle) return illegal("battle cards are not deployed (Y28)");
      return illegal(std::string(card(c).title) + " costs " + std::to_string(card(c).counters) +
                     " counters and " + std::to_string(table_.counters_left) + " are left (Y4)");
    }
    case ActionKind::kInitiateDuel:
      return illegal(
          "a duel needs your dueling character, a lightsaber it can use and an opposing "
          "character, all in play (seed 003)");
    case ActionKind::kDefend:
      return illegal(
          "defend with the chosen character or one of your dueling characters (seed 003)");
    case ActionKind::kArmDefender:
      return illegal("the defending character cannot use that weapon");
    case ActionKind::kAttack:
      return illegal(std::string(card(c).title) + " is not in your dueling hand");
    case ActionKind::kDeployFromDeck:
      return illegal(std::string(card(c).title) +
                     " is not a card your search may deploy: the text names another, or it is "
                     "not in your draw deck, or it costs more than the counters left (Y29)");
    case ActionKind::kBlock:
      return illegal("a block needs a card of your dueling hand with destiny " +
                     std::to_string(card(static_cast<uint16_t>(table_.duel.attack_card)).destiny) +
                     " (seed 003)");
    default:
      return illegal("the arguments do not fit this action");
  }
}

}  // namespace duelhall::engine::young_jedi
