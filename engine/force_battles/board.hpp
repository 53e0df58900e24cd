// The Force Battles character board (ruling F1) and the counters on it (F3).
//
// Six TARGETS, seven FORCE SPHERES between them, ATT, DEF, thirteen FORCE GEAS slots and the
// FORCE POOL. Every counter keeps its owner's colour (F3), so a pile is a count per owner seat.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace duelhall::engine::force_battles {

inline constexpr int kTargets = 6;
inline constexpr int kSpheres = 7;
inline constexpr int kGeasCount = 13;
inline constexpr int kSphereCapacity = 4;   // F1: a sphere never holds more than 4
inline constexpr int kAttDefLimit = 10;     // seed: "10 FORCE POWER for Attack and Defense"
inline constexpr int kMinSphereTotal = 21;  // seed: "at least 21 FORCE POWER for all FORCE SPHERES"

enum Target : uint8_t { kHead, kLeftArm, kRightArm, kTorso, kLeftLeg, kRightLeg };
// F1 sphere order; kCenter is the sphere Choke drains and conversion fills.
enum Sphere : uint8_t { kHL, kHR, kCenter, kLT, kRT, kLL, kRL };
// In the order the issue lists them; the wire uses these numbers.
enum Geas : uint8_t {
  kHide,
  kJump,
  kMindTrick,
  kSight,
  kPush,
  kPull,
  kSpeed,
  kLightning,
  kLightningAbsorb,
  kHeal,
  kChoke,
  kProtect,
  kRage
};
enum Side : uint8_t { kLight = 0, kDark = 1 };
enum Hand : uint8_t { kLeft = 0, kRight = 1 };
inline constexpr int kColours = 6;
inline constexpr int kRed = 3;  // seed colour list: green, orange, blue, red, purple, yellow

// The names texts use, by number; the phrase book lists them too (phrases.cpp).
inline constexpr std::string_view kTargetNames[kTargets] = {"head",  "left arm", "right arm",
                                                            "torso", "left leg", "right leg"};
inline constexpr std::string_view kSphereNames[kSpheres] = {"HL", "HR", "center", "LT",
                                                            "RT", "LL", "RL"};
inline constexpr std::string_view kGeasNames[kGeasCount] = {
    "Hide",  "Jump",      "Mind Trick",       "Sight", "Push",  "Pull",
    "Speed", "Lightning", "Lightning Absorb", "Heal",  "Choke", "Protect",
    "Rage"};
inline constexpr std::string_view kColourNames[kColours] = {"green", "orange", "blue",
                                                            "red",   "purple", "yellow"};
inline std::string_view target_name(int target) {
  return kTargetNames[target];
}
inline std::string_view sphere_name(int sphere) {
  return kSphereNames[sphere];
}
inline std::string_view geas_name(int geas) {
  return kGeasNames[geas];
}
inline std::string_view colour_name(int colour) {
  return kColourNames[colour];
}

// F1 adjacency: bit t of the mask is target t.
uint8_t sphere_targets(int sphere);
bool adjacent(int sphere, int target);
// F1: the sphere lies between targets a and b (a neighbour move through it costs 1). Every
// sphere lies between its two targets; the center only between Head-Torso and LArm-RArm.
bool lies_between(int sphere, int a, int b);
// The arm (hand target) and leg on the side of a hand.
inline int hand_target(int hand) {
  return hand == kLeft ? kLeftArm : kRightArm;
}
inline int hand_leg(int hand) {
  return hand == kLeft ? kLeftLeg : kRightLeg;
}
// Seed: the D6 target table, read by side and handedness.
int target_for_roll(int side, int hand, int die);
// Which GEAS a side may hold and use (seed: "You can only be ... Side to use this ability").
bool geas_allowed(int side, int geas);

// Counters of one location, by owner seat.
struct Pile {
  std::array<int16_t, 2> by_owner{};
  int total() const { return by_owner[0] + by_owner[1]; }
  int of(int owner) const { return by_owner[owner]; }
  bool operator==(const Pile&) const = default;
};

// Moves `n` counters (n <= from.total()). Counters of `first_owner` move first; the rulesets
// call this with the other seat's colour for ordinary moves (ruling F11).
void move_counters(Pile& from, Pile& to, int n, int first_owner);

struct Board {
  std::array<Pile, kSpheres> spheres{};
  std::array<Pile, kTargets> targets{};
  Pile att, def;
  std::array<Pile, kGeasCount> geas{};
  Pile pool;

  int sphere_total() const;
  int on_board() const;  // everything outside the pool
  int owned_by(int owner) const;
  int outside_pool_of(int owner) const;  // `owner`'s colour anywhere but the pool (F41)
  bool operator==(const Board&) const = default;
};

}  // namespace duelhall::engine::force_battles
