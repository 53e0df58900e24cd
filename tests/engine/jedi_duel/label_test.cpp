// Jedi Duel's action labels are said by its phrase book's label forms (jedi_duel/phrases.cpp), so
// that a protocol 7 client renders them from the code alone (docs/protocol.md, version 7).
#include "core/phrase.hpp"
#include "table.hpp"

using namespace jedi_test;

namespace {

std::string label(Action action) {
  TableSetup setup;
  setup.seats.resize(2);
  static Table table = make_table(2, setup);
  return table.s->action_label(0, action);
}

}  // namespace

TEST_CASE("Labels: every action kind's label reads as its form says, a ♣'s area only when declared") {
  CHECK(label(Action::make(kSetupStance, C(5), kHigh)) == "Stance 5♣ as High");
  CHECK(label(Action::make(kStance, H(9))) == "Stance 9♥");
  CHECK(label(Action::make(kAttack, C(13), 1, kLow)) == "attack @1 with K♣ into Low");
  CHECK(label(Action::make(kAttack, S(7), 2)) == "attack @2 with 7♠");
  CHECK(label(Action::make(kJokerAttack, kJ1, 1)) == "Joker against @1");
  CHECK(label(Action::make(kForceHeal, H(1))) == "Force Heal with A♥");
  CHECK(label(Action::make(kForcePush, D(1))) == "Force Push with A♦");
  CHECK(label(Action::make(kForceSense, S(1), 3)) == "Force Sense on @3 with A♠");
  CHECK(label(Action::make(kLightningRoyals, C(11), D(12), H(13), S(11))) ==
        "Force Lightning with J♣, Q♦, K♥, J♠");
  CHECK(label(Action::make(kLightningJokers)) == "Force Lightning with both Jokers");
  CHECK(label(Action::make(kDiscard, S(4))) == "discard 4♠ to regain fatigue");
  CHECK(label(Action::make(kPassAction)) == "pass");
  CHECK(label(Action::make(kNoDefence)) == "take it");
  CHECK(label(Action::make(kClubDefence, C(3))) == "defend with 3♣");
  CHECK(label(Action::make(kForceDefence, D(2))) == "Force Defence with 2♦");
  CHECK(label(Action::make(kFumble, C(2))) == "make the attacker fumble with 2♣");
  CHECK(label(Action::make(kNoFumble)) == "no fumble");
  CHECK(label(Action::make(kSenseSwap, H(3), S(8))) == "swap 3♥ for 8♠");
  CHECK(label(Action::make(kNoSwap)) == "no swap");
  CHECK(label(Action::make(kReturnCard, D(6))) == "put 6♦ back on the deck");
}

TEST_CASE("Labels: every kind has a form, and a code outside the forms is named by its kind") {
  const PhraseBook& book = phrase_book();
  for (uint8_t kind = 1; kind <= kLastKind; ++kind) {
    INFO("kind " << int{kind});
    CHECK(book.label_form(kind) != nullptr);
  }
  CHECK(book.label_form(0) == nullptr);
  CHECK(book.label_form(kLastKind + 1) == nullptr);
  CHECK(label(Action::make(kAttack, 200, 1)) == "unknown action 2");  // no card 200
  CHECK(label(Action::make(kLastKind + 1)) == "unknown action 20");
}
