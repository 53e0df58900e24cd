// Everything a Young Jedi duel match holds (its "table"): the zones of both players, the turn and
// the duel in progress. A plain struct, so scenario tests can set up a position directly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace duelhall::engine::young_jedi {

// The action kinds; proto/young_jedi.proto documents their argument bytes.
enum class ActionKind : uint8_t {
  kChoosePlanet = 1,     // a0: 0 Tatooine, 1 Naboo, 2 Coruscant
  kDeploy = 2,           // a0, a1: catalogue index (little-endian) of a hand card
  kEndDeploy = 3,        //
  kInitiateDuel = 4,     // a0: your character, a1: its lightsaber, a2: opponent's character
                         // (positions in the players' in-play lists)
  kSkipDuel = 5,         //
  kDefend = 6,           // a0: position of the defending character (the chosen one or a swap)
  kArmDefender = 7,      // a0: position of the defender's weapon
  kDefendUnarmed = 8,    //
  kAttack = 9,           // a0, a1: catalogue index of a dueling-hand card
  kBlock = 10,           // a0, a1: catalogue index of a dueling-hand card of the same destiny
  kTakeHit = 11,         //
  kUseDuelingText = 12,  //
  kDeclineDuelingText = 13,
  kConcede = 14,
  kDrawCard = 15,  // take the draw a card's text offers ("you may draw", Y9)
  kDeclineDraw = 16,
  kDeployFromDeck = 17,  // a0, a1: catalogue index of a character the search may deploy (Y29)
  kEndSearch = 18,       // deploy nothing from the draw deck: reshuffle, then the DAMAGE penalty
};

enum class Phase : uint8_t {
  kChoosePlanet,    // the planet destiny winner picks the planet (Y2)
  kDeploy,          // the active player deploys (Y4.1)
  kChooseDuel,      // the active player may initiate a duel (Y4.2)
  kChooseDefender,  // the defending player keeps or swaps the defender (seed 003)
  kDefenderWeapon,  // the defending player picks a weapon or none
  kAttack,          // `to_act` plays an attack from the dueling hand
  kBlock,           // `to_act` blocks the attack or takes the hit
  kDuelingText,     // `to_act` may use the hitting card's "When dueling" text
  kOver,
  kOptionalDraw,    // `to_act` may take the draw a card's text offers (Y9); after kOver so the
                    // numbers clients know stay the same
  kSearchDrawDeck,  // `to_act` searches her draw deck for the card a deploy text names (Y29)
};

// A seat in chance-step labels, written as event texts write it ("@0", phrases.hpp's {s}).
inline std::string seat_ref(int seat) {
  std::string ref(1, '@');
  ref += std::to_string(seat);
  return ref;
}

inline constexpr int kPlanets = 3;
inline constexpr const char* kPlanetNames[kPlanets] = {"Tatooine", "Naboo", "Coruscant"};
inline constexpr int kDeployCounters = 6;
inline constexpr int kStartingHand = 6;
inline constexpr int kAbsent = -1;

struct Player {
  std::vector<uint16_t> draw;  // back is the top
  std::vector<uint16_t> hand;
  std::vector<uint16_t> known_hand;  // hand cards both players saw arrive (Anakin's destiny)
  std::vector<uint16_t> in_play;     // characters and weapons at the planet, in deploy order
  std::vector<uint16_t> discard;     // back is the top
  std::vector<uint16_t> dueling_hand;
  std::vector<uint16_t> dueling_pile;
  int hits = 0;  // hit tokens on this player's dueling character
  bool operator==(const Player&) const = default;
};

struct Duel {
  std::array<int, 2> character{kAbsent, kAbsent};  // in-play positions
  std::array<int, 2> weapon{kAbsent, kAbsent};
  int initiator = kAbsent;
  int attack_card = kAbsent;  // catalogue index of the attack to answer
  int text_card = kAbsent;    // the hitting card whose "When dueling" text may be used
  int text_owner = kAbsent;   // whose hit scored it
  bool operator==(const Duel&) const = default;
};

struct Table {
  std::array<Player, 2> players;
  Phase phase = Phase::kChoosePlanet;
  int planet = kAbsent;
  int active = 0;  // whose turn
  int to_act = 0;  // who decides now (one seat at a time in this game)
  int turn = 0;
  int counters_left = kDeployCounters;
  // An optional draw offered while deploying (Y29, Baskol Yeesrim): the answer returns to the
  // deploy step, where one offered after a duel (Aurra Sing) goes on to the draw step.
  bool draw_resumes_deploy = false;
  // The card whose deploy text has its player search her draw deck (Y29), while she searches.
  int search_text_card = kAbsent;
  Duel duel;
  // The destiny draws of Y2/Y3, public: {seat 0 card, seat 1 card} of the deciding draw.
  std::array<int, 2> planet_destiny{kAbsent, kAbsent};
  std::array<int, 2> first_player_destiny{kAbsent, kAbsent};
  // The end: winners as a seat mask (both: a tie) and why.
  SeatMask winners;
  uint8_t end_reason = 0;  // see EndReason
  bool operator==(const Table&) const = default;
};

enum class EndReason : uint8_t { kNone, kDeckVictory, kBothDeckedOut, kConceded };

}  // namespace duelhall::engine::young_jedi
