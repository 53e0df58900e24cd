// The view (proto/force_battles.proto, message View) and action labels. F8: before both setups
// are revealed a seat's choices and board are shown only to that seat; everything else is open.
#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {
namespace {

uint32_t plus_one(int v) {
  return v < 0 ? 0 : static_cast<uint32_t>(v + 1);
}

template <size_t N>
std::vector<uint32_t> counts(const std::array<Pile, N>& piles, int owner) {
  std::vector<uint32_t> out(N);
  for (size_t i = 0; i < N; ++i) {
    out[i] = static_cast<uint32_t>(owner < 0 ? piles[i].total() : piles[i].of(owner));
  }
  return out;
}

void write_board(ProtoWriter& w, const Board& b, Seat owner) {
  const Seat foreign = 1 - owner;
  w.packed_field(1, counts(b.spheres, -1));
  w.packed_field(2, counts(b.targets, -1));
  w.uint_field(3, static_cast<uint32_t>(b.att.total()));
  w.uint_field(4, static_cast<uint32_t>(b.def.total()));
  w.packed_field(5, counts(b.geas, -1));
  w.uint_field(6, static_cast<uint32_t>(b.pool.total()));
  w.packed_field(7, counts(b.spheres, foreign));
  w.packed_field(8, counts(b.targets, foreign));
  w.uint_field(9, static_cast<uint32_t>(b.pool.of(foreign)));
}

}  // namespace

void ForceBattlesState::write_view(const Viewer& viewer, std::string& out) const {
  ProtoWriter w(out);
  w.uint_field(1, static_cast<uint32_t>(m_.phase));
  w.uint_field(2, static_cast<uint32_t>(m_.round));
  w.uint_field(3, static_cast<uint32_t>(m_.round_limit));
  w.uint_field(4, static_cast<uint32_t>(m_.level));
  for (Seat s = 0; s < 2; ++s) {
    const Player& p = player(s);
    const bool shown = m_.phase != Phase::kSetup || viewer.sees_private_of(s);
    w.message_field(5, [&](ProtoWriter& pw) {
      pw.uint_field(1, p.stage);
      pw.bool_field(2, shown);
      if (shown) {
        // Before the side is chosen it reads as unknown, not Light.
        const bool side_set = p.stage > kStageSide, hand_set = p.stage > kStageHand,
                   colour_set = p.stage > kStageColour;
        pw.uint_field(3, side_set ? p.side + 1u : 0u);
        pw.uint_field(4, hand_set ? p.hand + 1u : 0u);
        pw.uint_field(5, colour_set ? p.colour + 1u : 0u);
        pw.uint_field(6, plus_one(p.free_geas));
        pw.message_field(7, [&](ProtoWriter& bw) { write_board(bw, p.board, s); });
      }
      pw.uint_field(8, p.used);
      pw.bool_field(9, p.free_used);
      pw.bool_field(10, p.hiding);
      pw.bool_field(11, p.speed);
      pw.uint_field(12, static_cast<uint32_t>(p.bonus));
      pw.uint_field(13, static_cast<uint32_t>(budget_of(m_.level).total));
    });
  }
  w.uint_field(6, plus_one(m_.attacker));
  w.uint_field(7, plus_one(m_.initiative));
  w.uint_field(8, m_.phase == Phase::kSetup ? 0 : plus_one(m_.actor));
  w.uint_field(9, plus_one(m_.chooser >= 0 ? -1 : m_.target));
  w.uint_field(10, plus_one(m_.chooser));
  w.bool_field(11, m_.kicking);
  const bool dice_known = m_.attacker >= 0 && m_.target >= 0 && m_.chooser < 0;
  w.uint_field(12, dice_known ? static_cast<uint32_t>(hit_die()) : 0u);
  w.uint_field(13, dice_known ? static_cast<uint32_t>(block_die()) : 0u);
  for (const Roll& r : m_.rolls) {
    w.message_field(14, [&](ProtoWriter& rw) {
      rw.uint_field(1, plus_one(r.seat));
      rw.string_field(2, r.what);
      rw.packed_field(3, r.dice);
    });
  }
  w.bool_field(15, m_.jumped);
  w.bool_field(16, m_.pushed);
  w.bool_field(17, m_.pulled);
  w.bool_field(18, m_.choked);
  w.bool_field(19, m_.protect);
  w.bool_field(20, m_.rage);
  const bool rolled = !m_.tasks.empty() || m_.phase == Phase::kPlacement;
  w.bool_field(21, rolled && m_.hit);
  w.bool_field(22, rolled && m_.block);
  w.uint_field(23, plus_one(m_.strike_sphere));
  w.uint_field(24, static_cast<uint32_t>(m_.strike));
  w.uint_field(25, static_cast<uint32_t>(m_.buffer.total()));
  w.uint_field(26, m_.place_mask);
  w.bool_field(27, m_.place_pool);
  w.uint_field(28, m_.winner == 2 ? 3u : plus_one(m_.winner));
  w.string_field(29, m_.end_reason);
  w.uint_field(30, plus_one(m_.kick_initiative));
  w.bool_field(31, m_.free_target_next);
  w.uint_field(32, pending().bits());
}

std::string ForceBattlesState::action_label(Seat seat, Action a) const {
  const auto n = [&](int i) { return std::to_string(a.arg(i)); };
  const auto sphere = [&](int i) {
    return a.arg(i) < kSpheres ? std::string(sphere_name(a.arg(i))) : "sphere " + n(i);
  };
  const auto target = [&](int i) {
    return a.arg(i) < kTargets ? std::string(target_name(a.arg(i))) : "target " + n(i);
  };
  const auto geas = [&](int i) {
    return a.arg(i) < kGeasCount ? std::string(geas_name(a.arg(i))) : "GEAS " + n(i);
  };
  switch (a.kind) {
    case kSetupSide:
      return a.arg(0) == kDark ? "the Dark side" : "the Light side";
    case kSetupHand:
      return a.arg(0) == kLeft ? "left-handed" : "right-handed";
    case kSetupColour:
      return a.arg(0) < kColours ? std::string(colour_name(a.arg(0))) : "colour " + n(0);
    case kSetupSphere:
      return n(1) + " in sphere " + sphere(0);
    case kSetupAtt:
      return n(0) + " in ATT";
    case kSetupDef:
      return n(0) + " in DEF";
    case kSetupGeas:
      return n(1) + " in " + geas(0);
    case kSetupFreeGeas:
      return geas(0) + " as the free GEAS";
    case kSetupConfirm:
      return "confirm the setup";
    case kPass:
      return "pass";
    case kUseGeas:
      return "use " + geas(0) + " x" + n(1) + (a.arg(2) ? " (free)" : "") +
             (a.arg(0) == kLightning ? " on " + sphere(3) : "");
    case kAttack:
      return "attack";
    case kDecline:
      return "decline to attack";
    case kChooseTarget:
      return "target the " + target(0);
    case kMoveTarget:
      return "move the attack through " + sphere(0) + " to the " + target(1);
    case kPullIn:
      return "pull " + n(1) + " from " + sphere(0);
    case kKick:
      return "kick";
    case kRegain:
      if (a.arg(0) == 0) return "regain from your pool";
      // Seed: a Light player who takes red counters turns to the Dark Side; the label says so.
      return seat >= 0 && seat < 2 && player(seat).side == kLight
                 ? "take from the opponent's pool and turn to the Dark Side"
                 : "take from the opponent's pool";
    case kPlace:
      return "place " + n(1) + " in " + sphere(0);
    case kPoolRest:
      return "put the rest in the pool";
    case kStanceKeep:
      return "keep the stance";
    case kStanceRearrange:
      return "choose a new stance";
    case kGive:
      return "give 1 from location " + n(0);
    case kTake:
      return a.arg(0) == 1 ? "take 1 red FORCE POWER and turn to the Dark Side"
                           : "take 1 FORCE POWER";
    case kRedirect:
      return "direct the Lightning to " + sphere(0) + (a.arg(1) ? " (free)" : "");
    default:
      return "action kind " + std::to_string(a.kind);
  }
}

}  // namespace duelhall::engine::force_battles
