// Dispatching a validated action to its rule, refusals with reasons, and action labels.
#include <algorithm>

#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {
namespace {

const char* phase_text(Phase phase) {
  switch (phase) {
    case Phase::kSetup:
      return "choosing an initial Stance";
    case Phase::kStance:
      return "playing a new Stance";
    case Phase::kAction:
      return "choosing an attack, a Force power or a discard";
    case Phase::kDefend:
      return "answering an attack";
    case Phase::kFumble:
      return "choosing whether the attacker fumbles";
    case Phase::kSense:
      return "choosing a Force Sense swap";
    case Phase::kReturn:
      return "putting a drawn card back";
    case Phase::kOver:
      return "the game is over";
  }
  return "";
}
}  // namespace

ApplyResult JediDuelState::explain_refusal(Seat seat, Action action) const {
  std::string reason = "'";
  reason += action_label(seat, action);
  reason += "' is not allowed while ";
  reason += phase_text(phase_);
  return ApplyResult::refused(RefusalCode::kIllegal, std::move(reason));
}

void JediDuelState::do_apply(Seat seat, Action action) {
  const Card card = action.arg(0);
  switch (action.kind) {
    case kSetupStance:  // J17
      play_stance(seat, card, static_cast<Area>(action.arg(1)), false);
      {
        std::vector<Card> drawn;
        draw_one(seat, &drawn);
        emit_draw(seat, drawn);
      }
      advance_setup(seat);
      return;
    case kStance:  // steps 1 and 2
      play_stance(seat, card, static_cast<Area>(action.arg(1)), true);
      phase_ = Phase::kAction;
      return;
    case kAttack:
      start_attack(seat, card, action.arg(1), static_cast<Area>(action.arg(2)));
      return;
    case kJokerAttack:
      start_joker(seat, card, action.arg(1));
      return;
    case kLightningRoyals:
      for (int i = 0; i < 4; ++i) {
        take_from_hand(seat, action.arg(i));
        discard_.push_back(action.arg(i));
      }
      start_lightning(seat);
      return;
    case kLightningJokers:
      for (Card joker : {kFirstJoker, kSecondJoker}) {
        take_from_hand(seat, joker);
        discard_.push_back(joker);
      }
      start_lightning(seat);
      return;
    case kForceHeal:  // J10: to the top of the current column
      take_from_hand(seat, card);
      discard_.push_back(card);
      p(seat).fatigue = tables_.column_top(p(seat).fatigue);
      if (wants_events()) {
        say(Phrase(kSaidForceHeal).seat(seat).entry(card).number(p(seat).fatigue));
      }
      after_action();
      return;
    case kForcePush:  // J10: shielded until this player's next turn
      take_from_hand(seat, card);
      discard_.push_back(card);
      p(seat).shielded = true;
      if (wants_events()) {
        say(Phrase(kSaidForcePush).seat(seat).entry(card));
      }
      after_action();
      return;
    case kForceSense: {  // J10: the caster alone sees the hand
      const Seat target = action.arg(1);
      take_from_hand(seat, card);
      discard_.push_back(card);
      sense_target_ = target;
      phase_ = Phase::kSense;
      if (wants_events()) {
        const auto& seen = p(target).hand;
        say_to(SeatMask::only(seat),
               seen.empty() ? Phrase(kSaidForceSenseEmptyHand).seat(seat).seat(target)
                            : Phrase(kSaidForceSenseSeen)
                                  .seat(seat)
                                  .seat(target)
                                  .entries(seen, [](Card c) { return c; }),
               Phrase(kSaidForceSense).seat(seat).seat(target));
      }
      return;
    }
    case kSenseSwap: {
      const Card theirs = action.arg(1);
      for (Card& c : p(seat).hand) {
        if (c == card) c = theirs;
      }
      for (Card& c : p(sense_target_).hand) {
        if (c == theirs) c = card;
      }
      if (wants_events()) {
        SeatMask both = SeatMask::only(seat);
        both.add(sense_target_);
        say_to(both, Phrase(kSaidSwapFor).seat(seat).entry(card).seat(sense_target_).entry(theirs),
               Phrase(kSaidSwapWith).seat(seat).seat(sense_target_));
      }
      sense_target_ = -1;
      after_action();
      return;
    }
    case kNoSwap:
      sense_target_ = -1;
      after_action();
      return;
    case kDiscard:
      regain(seat, card);
      after_action();
      return;
    case kPassAction:
      if (wants_events()) say(Phrase(kSaidNoCardToPlay).seat(seat));
      after_action();
      return;
    case kNoDefence:
    case kClubDefence:
    case kForceDefence:
      resolve_defence(seat, action);
      return;
    case kFumble:
    case kNoFumble:
      resolve_fumble(seat, action);
      return;
    case kReturnCard:  // J14: on top of the deck, known only to this player
      take_from_hand(seat, card);
      deck_.push_back(card);
      deck_known_.push_back(static_cast<uint8_t>(1u << seat));
      if (wants_events()) {
        say_to(SeatMask::only(seat), Phrase(kSaidPutBack).seat(seat).entry(card),
               Phrase(kSaidPutACardBack).seat(seat));
      }
      finish_turn();
      return;
    default:
      return;
  }
}

// Said by the book's label form (phrases.cpp), which a protocol 7 client renders from the code
// itself; an action outside the forms (a refused code) is named by its kind.
std::string JediDuelState::action_label(Seat, Action action) const {
  std::string label = render(phrase_book(), label_phrase(phrase_book(), action));
  return label.empty() ? "unknown action " + std::to_string(action.kind) : label;
}

Outcome JediDuelState::outcome() const {
  Outcome result;
  if (phase_ != Phase::kOver) return result;
  result.winners = winners_;
  for (const PlayerState& player : players_) result.scores.push_back(player.fatigue);
  result.reason = end_reason_;
  return result;
}

std::unique_ptr<State> JediDuelState::clone() const {
  return std::make_unique<JediDuelState>(*this);
}

bool JediDuelState::knows_deck_card(Seat seat, size_t depth) const {
  if (depth >= deck_.size()) return false;
  return (deck_known_[deck_.size() - 1 - depth] >> seat) & 1u;
}

}  // namespace duelhall::engine::jedi_duel
