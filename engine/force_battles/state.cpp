// The State interface: who decides, what is legal, dispatch, outcome and conservation.
#include <algorithm>

#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {
namespace {

Competency competency_from(const Params& params) {
  const std::string& level = params.get_choice("competency");
  if (level == "initiate") return Competency::kInitiate;
  if (level == "templar") return Competency::kTemplar;
  if (level == "diamedes") return Competency::kDiamedes;
  return Competency::kLearner;
}

// A setup step as its seat hears it: "chose" and the step's label (action_label), whose words the
// templates repeat. Only legal steps get here, so every argument is in its list's range.
Phrase setup_choice(Seat seat, Action a) {
  switch (a.kind) {
    case kSetupSide:
      return Phrase(kSaidChoseSide).seat(seat).entry(a.arg(0) == kDark ? kDark : kLight);
    case kSetupHand:
      return Phrase(kSaidChoseHand).seat(seat).entry(a.arg(0) == kLeft ? kLeft : kRight);
    case kSetupColour:
      return Phrase(kSaidChoseColour).seat(seat).entry(a.arg(0));
    case kSetupSphere:
      return Phrase(kSaidChoseSphere).seat(seat).number(a.arg(1)).entry(a.arg(0));
    case kSetupAtt:
      return Phrase(kSaidChoseAtt).seat(seat).number(a.arg(0));
    case kSetupDef:
      return Phrase(kSaidChoseDef).seat(seat).number(a.arg(0));
    case kSetupGeas:
      return Phrase(kSaidChoseGeas).seat(seat).number(a.arg(1)).entry(a.arg(0));
    case kSetupFreeGeas:
      return Phrase(kSaidChoseFreeGeas).seat(seat).entry(a.arg(0));
    default:
      return Phrase(kSaidChoseConfirm).seat(seat);
  }
}

}  // namespace

ForceBattlesState::ForceBattlesState(MatchConfig config) : State(std::move(config)) {
  m_.level = competency_from(this->config().params);
  m_.round_limit = static_cast<int16_t>(this->config().params.get_int("round_limit"));
  const int total = budget_of(m_.level).total;
  for (Seat s = 0; s < 2; ++s) {
    // F2: whatever is not placed stays in the FORCE POOL, so setup starts with all of it there.
    player(s).board.pool.by_owner[static_cast<size_t>(s)] = static_cast<int16_t>(total);
  }
  // A seat's option is its setup as text (setup_text.hpp), checked by the registry before the
  // match is built (register.cpp): the seat starts with those choices made.
  const std::vector<std::string>& options = this->config().seat_options;
  for (Seat s = 0; s < 2 && static_cast<size_t>(s) < options.size(); ++s) {
    if (options[static_cast<size_t>(s)].empty()) continue;
    std::string error;
    if (auto plan = read_setup_text(options[static_cast<size_t>(s)], error)) preset_setup(s, *plan);
  }
}

SeatMask ForceBattlesState::pending() const {
  SeatMask mask;
  if (m_.phase == Phase::kOver) return mask;
  if (m_.phase == Phase::kSetup) {
    for (Seat s = 0; s < 2; ++s) {
      if (player(s).stage != kStageDone) mask.add(s);
    }
    return mask;
  }
  if (m_.actor >= 0) mask.add(m_.actor);
  return mask;
}

void ForceBattlesState::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (!pending().has(seat)) return;
  switch (m_.phase) {
    case Phase::kSetup:
      setup_actions(seat, out);
      break;
    case Phase::kOpening:
      opening_actions(seat, out);
      break;
    case Phase::kAttackChoice:
      out.push_back(Action::make(kAttack));
      out.push_back(Action::make(kDecline));
      break;
    case Phase::kTarget:
      target_actions(seat, out);
      break;
    case Phase::kDefenderPull:
    case Phase::kAttackerPull:
      pull_actions(seat, out);
      break;
    case Phase::kBattleGeas:
      battle_actions(seat, out);
      break;
    case Phase::kLightningAnswer:
      answer_actions(seat, out);
      break;
    case Phase::kReward:
    case Phase::kPlacement:
    case Phase::kStance:
    case Phase::kGift:
    case Phase::kKickTake:
      follow_up_actions(seat, out);
      break;
    case Phase::kOver:
      break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

ApplyResult ForceBattlesState::explain_refusal(Seat seat, Action action) const {
  return ApplyResult::refused(RefusalCode::kIllegal,
                              action_label(seat, action) + " is not allowed now");
}

void ForceBattlesState::do_apply(Seat seat, Action action) {
  switch (m_.phase) {
    case Phase::kSetup:
      apply_setup(seat, action);
      if (wants_events()) {
        emit(Event::said_to(phrase_book(), SeatMask::only(seat), setup_choice(seat, action),
                            Phrase(kSaidMadeSetupChoice).seat(seat)));
      }
      if (player(0).stage == kStageDone && player(1).stage == kStageDone) reveal_setups();
      return;
    case Phase::kOpening:
      if (action.kind == kPass) {
        window_pass(seat);
      } else {
        apply_geas(seat, action);
      }
      return;
    case Phase::kAttackChoice:
      if (action.kind == kAttack) {
        say(Phrase(kSaidAttacks).seat(seat));
        begin_attack(seat);
      } else {
        // F4.3: a declined attack passes to the other player, who must attack.
        say(Phrase(kSaidDeclines).seat(seat).seat(1 - seat));
        begin_attack(1 - seat);
      }
      return;
    case Phase::kTarget:
      apply_target(seat, action);
      return;
    case Phase::kDefenderPull:
    case Phase::kAttackerPull:
      apply_pull(seat, action);
      return;
    case Phase::kBattleGeas:
    case Phase::kLightningAnswer:
      if (action.kind == kPass) {
        window_pass(seat);
      } else if (action.kind == kChooseTarget) {
        retarget(seat, action.arg(0));
      } else {
        apply_geas(seat, action);
      }
      return;
    case Phase::kGift:
      apply_gift(seat, action);
      return;
    case Phase::kReward:
    case Phase::kPlacement:
    case Phase::kStance:
    case Phase::kKickTake:
      apply_follow_up(seat, action);
      return;
    case Phase::kOver:
      return;
  }
}

Outcome ForceBattlesState::outcome() const {
  Outcome result;
  result.scores = {round_limit_count(0), round_limit_count(1)};  // F41
  if (m_.winner == 0 || m_.winner == 1) result.winners.add(m_.winner);
  result.reason = m_.end_reason;
  return result;
}

std::unique_ptr<State> ForceBattlesState::clone() const {
  return std::make_unique<ForceBattlesState>(*this);
}

std::vector<int32_t> ForceBattlesState::inventory() const {
  // F3: counters keep their owner; none is created or destroyed, wherever it goes.
  std::vector<int32_t> counts(2, 0);
  for (Seat owner = 0; owner < 2; ++owner) {
    for (Seat s = 0; s < 2; ++s) counts[owner] += player(s).board.owned_by(owner);
    counts[owner] += m_.buffer.of(owner);
  }
  return counts;
}

int ForceBattlesState::die(Seat seat, const std::string& what) {
  int value = 0;
  if (!forced_.empty()) {
    value = forced_.front();
    forced_.pop_front();
  } else {
    value = roll(6, what + (seat >= 0 ? " @" + std::to_string(seat) : std::string()));
  }
  return value;
}

void ForceBattlesState::say(const Phrase& phrase) {
  if (wants_events()) emit(Event::said(phrase_book(), phrase));
}

void ForceBattlesState::finish(int winner, const Phrase& reason) {
  m_.phase = Phase::kOver;
  m_.actor = -1;
  m_.winner = static_cast<int8_t>(winner);
  m_.end_reason = render(phrase_book(), reason);
  say(reason);
}

}  // namespace duelhall::engine::force_battles
