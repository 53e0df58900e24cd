// The secret, simultaneous setup (F2, F8): a fixed sequence of small steps per seat.
#include <algorithm>

#include "force_battles/force_battles.hpp"
#include "force_battles/text.hpp"

namespace duelhall::engine::force_battles {

Budget budget_of(Competency level) {
  switch (level) {
    case Competency::kLearner:
      return {31, 21, 21};  // 21 in spheres + 10 (seed, F2)
    case Competency::kInitiate:
      return {35, 21, 21};  // "cannot use more than 21" (seed)
    case Competency::kTemplar:
      return {40, 21, 28};  // "as much as you wish", 4 per sphere
    case Competency::kDiamedes:
      return {50, 21, 28};  // as Templar (F2)
  }
  return {31, 21, 21};
}

namespace {

// Ruling F10: a setup stance has at least 1 in every sphere; a 0 in a bottom sphere would end
// the battle by F6 before the first roll.
constexpr int kSetupSphereMin = 1;

}  // namespace

void ForceBattlesState::setup_actions(Seat seat, std::vector<Action>& out) const {
  const Player& p = player(seat);
  const Budget budget = budget_of(m_.level);
  const int pool = p.board.pool.total();
  const int stage = p.stage;
  if (stage == kStageSide) {
    out.push_back(Action::make(kSetupSide, kLight));
    out.push_back(Action::make(kSetupSide, kDark));
  } else if (stage == kStageHand) {
    out.push_back(Action::make(kSetupHand, kLeft));
    out.push_back(Action::make(kSetupHand, kRight));
  } else if (stage == kStageColour) {
    // Seed: Dark uses only red counters; Light may not choose red, period.
    for (int c = 0; c < kColours; ++c) {
      if ((c == kRed) == (p.side == kDark)) out.push_back(Action::make(kSetupColour, uint8_t(c)));
    }
  } else if (stage < kStageAtt) {
    const int sphere = stage - kStageSpheres;
    const int placed = p.board.sphere_total();
    const int after = kSpheres - sphere - 1;
    for (int n = kSetupSphereMin; n <= kSphereCapacity; ++n) {
      const int total = placed + n;
      if (total + after * kSetupSphereMin > budget.sphere_max) break;
      if (total + after * kSphereCapacity < budget.sphere_min) continue;
      out.push_back(Action::make(kSetupSphere, uint8_t(sphere), uint8_t(n)));
    }
  } else if (stage == kStageAtt) {
    for (int n = 0; n <= std::min(kAttDefLimit, pool); ++n) {
      out.push_back(Action::make(kSetupAtt, uint8_t(n)));
    }
  } else if (stage == kStageDef) {
    for (int n = 0; n <= std::min(kAttDefLimit - p.board.att.total(), pool); ++n) {
      out.push_back(Action::make(kSetupDef, uint8_t(n)));
    }
  } else if (stage < kStageFreeGeas) {
    const int geas = stage - kStageGeas;
    // Ruling F12: a slot of the other side's GEAS stays empty.
    const int most = geas_allowed(p.side, geas) ? pool : 0;
    for (int n = 0; n <= most; ++n)
      out.push_back(Action::make(kSetupGeas, uint8_t(geas), uint8_t(n)));
  } else if (stage == kStageFreeGeas) {
    for (int g = 0; g < kGeasCount; ++g) {
      if (geas_allowed(p.side, g)) out.push_back(Action::make(kSetupFreeGeas, uint8_t(g)));
    }
  } else if (stage == kStageConfirm) {
    out.push_back(Action::make(kSetupConfirm));
  }
}

void ForceBattlesState::apply_setup(Seat seat, Action action) {
  Player& p = player(seat);
  Board& b = p.board;
  const int n = action.arg(1);
  switch (action.kind) {
    case kSetupSide:
      p.side = action.arg(0);
      break;
    case kSetupHand:
      p.hand = action.arg(0);
      break;
    case kSetupColour:
      p.colour = action.arg(0);
      break;
    case kSetupSphere:
      move_counters(b.pool, b.spheres[action.arg(0)], n, seat);
      break;
    case kSetupAtt:
      move_counters(b.pool, b.att, action.arg(0), seat);
      break;
    case kSetupDef:
      move_counters(b.pool, b.def, action.arg(0), seat);
      break;
    case kSetupGeas:
      move_counters(b.pool, b.geas[action.arg(0)], n, seat);
      break;
    case kSetupFreeGeas:
      p.free_geas = static_cast<int8_t>(action.arg(0));
      break;
    case kSetupConfirm:
      break;
    default:
      return;
  }
  ++p.stage;
  if (p.stage == kStageFreeGeas && m_.level != Competency::kDiamedes) ++p.stage;
}

std::optional<std::string> ForceBattlesState::preset_setup(Seat seat, const SetupPlan& plan) {
  std::vector<Action> legal;
  while (pending().has(seat) && m_.phase == Phase::kSetup) {
    const std::optional<Action> step = plan_step(plan, player(seat).stage);
    if (!step) return std::nullopt;
    legal.clear();
    setup_actions(seat, legal);
    if (std::find(legal.begin(), legal.end(), *step) == legal.end()) {
      return text("the setup's ", action_label(seat, *step),
                  " is not allowed there (budgets F2, spheres F10, sides' GEAS F12)");
    }
    apply_setup(seat, *step);
  }
  return std::nullopt;
}

// A setup's line takes seat, side, hand, colour, ATT, DEF, the spheres and the free GEAS.
static_assert(6 + kSpheres + 1 <= Phrase::kMaxArgs);

void ForceBattlesState::reveal_setups() {
  say(Phrase(kSaidSetupsRevealed));
  for (Seat s = 0; s < 2; ++s) {
    const Player& p = player(s);
    const Board& b = p.board;
    Phrase line(p.free_geas >= 0 ? kSaidSetupWithFreeGeas : kSaidSetup);
    line.seat(s)
        .entry(p.side == kDark ? kDark : kLight)
        .entry(p.hand == kLeft ? kLeft : kRight)
        .entry(p.colour)
        .number(b.att.total())
        .number(b.def.total());
    for (const Pile& sphere : b.spheres) line.number(sphere.total());
    if (p.free_geas >= 0) line.entry(p.free_geas);
    say(line);
  }
  start_round();
}

void ForceBattlesState::resample_hidden(const Viewer& viewer, Rng& rng) {
  if (m_.phase != Phase::kSetup) return;  // F8: after the reveal nothing is hidden
  const Budget budget = budget_of(m_.level);
  for (Seat s = 0; s < 2; ++s) {
    if (viewer.sees_private_of(s)) continue;
    Player& p = player(s);
    const uint8_t progress = p.stage;
    p = Player{};
    p.board.pool.by_owner[static_cast<size_t>(s)] = static_cast<int16_t>(budget.total);
    std::vector<Action> legal;
    while (p.stage < progress) {
      legal.clear();
      setup_actions(s, legal);
      apply_setup(s, legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
  }
}

}  // namespace duelhall::engine::force_battles
