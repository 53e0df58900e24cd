// Force Battles' phrase book (core/phrase.hpp): every event and end reason of the ruleset is said
// as one of these templates. Lists, by the numbers the views use: "target", "sphere", "geas",
// "colour", "side" (Light, Dark), "hand" (left, right) and "roll" (RollFor: what a single die
// was rolled for).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/phrase.hpp"

namespace duelhall::engine::force_battles {

// Template ids: the wire sends these numbers (protocol 5), so new ones go at the end.
enum PhraseId : uint16_t {
  // Setup (F2, F8): a seat's choice, said to her; the others learn only that she chose.
  kSaidChoseSide = 1,      // seat, side
  kSaidChoseHand,          // seat, hand
  kSaidChoseColour,        // seat, colour
  kSaidChoseSphere,        // seat, count, sphere
  kSaidChoseAtt,           // seat, count
  kSaidChoseDef,           // seat, count
  kSaidChoseGeas,          // seat, count, geas
  kSaidChoseFreeGeas,      // seat, geas
  kSaidChoseConfirm,       // seat
  kSaidMadeSetupChoice,    // seat
  kSaidSetupsRevealed,     //
  kSaidSetup,              // seat, side, hand, colour, ATT, DEF, the seven spheres
  kSaidSetupWithFreeGeas,  // as kSaidSetup, then the free GEAS
  // The round (F4).
  kSaidRound,                   // round
  kSaidRolled,                  // seat, die, roll
  kSaidRolledAttack,            // seat, die, die, sum, Hit Die
  kSaidRolledDefence,           // seat, die, die, sum, Block Die
  kSaidKickInitiative,          // seat
  kSaidSpeedInitiative,         // seat
  kSaidWinsInitiative,          // seat
  kSaidDefendedLastMustAttack,  // seat
  kSaidHigherAttMustAttack,     // seat
  kSaidAttacks,                 // seat
  kSaidDeclines,                // seat, the seat who must attack
  kSaidAttackGoesTo,            // target
  kSaidMovesAttack,             // seat, sphere, target
  kSaidNamesTarget,             // seat, target
  kSaidPulls,                   // seat, count, sphere, target
  kSaidKicksWith,               // seat, target
  kSaidBlocksWith,              // seat, Block Die
  kSaidAttacksWith,             // seat, Hit Die
  // GEAS.
  kSaidUsesGeas,           // seat, geas
  kSaidUsesGeasTimes,      // seat, geas, amount
  kSaidUsesGeasFree,       // seat, geas
  kSaidUsesGeasTimesFree,  // seat, geas, amount
  kSaidLightningDirected,  // sphere
  kSaidLightningDrains,    // count, seat
  // The outcome (F5) and its follow-ups.
  kSaidHitBlocked,         //
  kSaidHitNotBlocked,      //
  kSaidMissBlocked,        //
  kSaidMissNotBlocked,     //
  kSaidChokeDoesNothing,   //
  kSaidKicksSuccessfully,  // kicker, kicked
  kSaidLoses,              // seat, count, target
  kSaidLosesToChoke,       // seat, count, target
  kSaidTurnsDark,          // seat
  kSaidGives,              // seat, the other seat
  kSaidRegains,            // seat, count
  kSaidRegainsFromPool,    // seat, count, the other seat
  kSaidPlaces,             // seat, count, sphere
  kSaidPutsInPool,         // seat, count
  kSaidNewStance,          // seat
  kSaidTakesRed,           // seat, the other seat
  kSaidTakes,              // seat, the other seat
  kSaidKeepsStance,        // seat
  // End reasons (F6, F40, F41), also kept as the match's end reason.
  kSaidMaimed,           // victim, target, winner
  kSaidRoundLimitDraw,   // count of seat 0, of seat 1
  kSaidRoundLimitWin,    // winner, count of seat 0, of seat 1
  kSaidConversion,       // the converted seat, winner
  kSaidDrained,          // victim, target, winner
  kSaidBothBoardsEmpty,  //
  kSaidEmpty,            // loser, target, winner
  kSaidCount,
};

// What a single die is rolled for: the "roll" list, and the roll's name in the view.
enum class RollFor : uint8_t { kInitiative, kTarget, kChoke, kDamage, kRegain };

const PhraseBook& phrase_book();
std::string_view roll_name(RollFor what);

}  // namespace duelhall::engine::force_battles
