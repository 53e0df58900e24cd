// Jedi Duel's phrase book (core/phrase.hpp): the templates its events and its actions' labels are
// said with, and the lists their slots name. The ids are the protocol's (MatchUpdate.phrases,
// PhraseBook.labels): a template keeps its id, and a new one takes the next.
#pragma once

#include <cstdint>

#include "core/phrase.hpp"

namespace duelhall::engine::jedi_duel {

enum PhraseId : uint16_t {
  kSaidForceHeal = 1,
  kSaidForcePush,
  kSaidForceSenseSeen,
  kSaidForceSenseEmptyHand,
  kSaidForceSense,
  kSaidSwapFor,
  kSaidSwapWith,
  kSaidNoCardToPlay,
  kSaidPutBack,
  kSaidPutACardBack,
  kSaidKeepsStance,
  kSaidTakesStance,
  kSaidReshuffle,
  kSaidDrew,
  kSaidDrewNothing,
  kSaidDrewCount,
  kSaidGameOver,
  kSaidOut,
  kSaidAttacks,
  kSaidJokerStrike,
  kSaidLightning,
  kSaidNegates,
  kSaidFumble,
  kSaidTooSlow,
  kSaidTooSlowBehind,
  kSaidHits,
  kSaidHitsBehind,
  kSaidDrops,
  kSaidRegains,
  // Action labels (the book's label forms, by kind).
  kLabelStance,
  kLabelAttack,
  kLabelJokerAttack,
  kLabelForceHeal,
  kLabelForcePush,
  kLabelForceSense,
  kLabelLightningRoyals,
  kLabelLightningJokers,
  kLabelDiscard,
  kLabelPass,
  kLabelNoDefence,
  kLabelClubDefence,
  kLabelForceDefence,
  kLabelFumble,
  kLabelNoFumble,
  kLabelSenseSwap,
  kLabelNoSwap,
  kLabelReturnCard,
};

// The end reasons ("game over: ..."), as {end} entries.
enum EndReason : uint8_t { kLastWithFatigue = 0, kMostFatigue = 1, kTiedForMostFatigue = 2 };
// What drops a player to the bottom of the column, as {cause} entries.
enum DropCause : uint8_t { kByJoker = 0, kByLightning = 1 };

const PhraseBook& phrase_book();
std::string_view end_reason_text(EndReason reason);

}  // namespace duelhall::engine::jedi_duel
