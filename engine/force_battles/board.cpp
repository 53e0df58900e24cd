#include "force_battles/board.hpp"

#include <algorithm>

namespace duelhall::engine::force_battles {

uint8_t sphere_targets(int sphere) {
  constexpr uint8_t H = 1 << kHead, LA = 1 << kLeftArm, RA = 1 << kRightArm, T = 1 << kTorso,
                    LG = 1 << kLeftLeg, RG = 1 << kRightLeg;
  static constexpr uint8_t kAdjacent[kSpheres] = {H | LA, H | RA, H | LA | RA | T, LA | T,
                                                  RA | T, T | LG, T | RG};
  return kAdjacent[sphere];
}

bool adjacent(int sphere, int target) {
  return (sphere_targets(sphere) >> target) & 1;
}

bool lies_between(int sphere, int a, int b) {
  if (a == b || !adjacent(sphere, a) || !adjacent(sphere, b)) return false;
  if (sphere != kCenter) return true;
  // F1: "C (center) | Head - Torso, Left Arm - Right Arm".
  const auto pair = [&](int x, int y) { return (a == x && b == y) || (a == y && b == x); };
  return pair(kHead, kTorso) || pair(kLeftArm, kRightArm);
}

int target_for_roll(int side, int hand, int die) {
  // Light right-handed or Dark left-handed: 2 = left arm; otherwise the arms and legs swap.
  const bool first_table = (side == kLight) == (hand == kRight);
  static constexpr int kFirst[6] = {kHead, kLeftArm, kRightArm, kTorso, kLeftLeg, kRightLeg};
  static constexpr int kSecond[6] = {kHead, kRightArm, kLeftArm, kTorso, kRightLeg, kLeftLeg};
  return first_table ? kFirst[die - 1] : kSecond[die - 1];
}

bool geas_allowed(int side, int geas) {
  switch (geas) {
    case kLightning:
    case kChoke:
    case kRage:
      return side == kDark;
    case kLightningAbsorb:
    case kHeal:
    case kProtect:
      return side == kLight;
    default:
      return true;
  }
}

void move_counters(Pile& from, Pile& to, int n, int first_owner) {
  const int second_owner = 1 - first_owner;
  const int a = std::min<int>(n, from.by_owner[first_owner]);
  from.by_owner[first_owner] = static_cast<int16_t>(from.by_owner[first_owner] - a);
  to.by_owner[first_owner] = static_cast<int16_t>(to.by_owner[first_owner] + a);
  const int b = n - a;
  from.by_owner[second_owner] = static_cast<int16_t>(from.by_owner[second_owner] - b);
  to.by_owner[second_owner] = static_cast<int16_t>(to.by_owner[second_owner] + b);
}

int Board::sphere_total() const {
  int sum = 0;
  for (const Pile& p : spheres) sum += p.total();
  return sum;
}

int Board::on_board() const {
  int sum = sphere_total() + att.total() + def.total();
  for (const Pile& p : targets) sum += p.total();
  for (const Pile& p : geas) sum += p.total();
  return sum;
}

int Board::outside_pool_of(int owner) const {
  return owned_by(owner) - pool.of(owner);
}

int Board::owned_by(int owner) const {
  int sum = pool.of(owner) + att.of(owner) + def.of(owner);
  for (const Pile& p : spheres) sum += p.of(owner);
  for (const Pile& p : targets) sum += p.of(owner);
  for (const Pile& p : geas) sum += p.of(owner);
  return sum;
}

}  // namespace duelhall::engine::force_battles
