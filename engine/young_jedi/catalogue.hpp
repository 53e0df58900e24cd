// The Young Jedi card catalogue: game facts only (no lore, no flavour text, no images), compiled
// in from catalogue_data.inc, which tools/young_jedi_catalogue.py generates from
// ../shared/data/young-jedi with every known data error fixed (docs/young-jedi-catalogue.md).
//
// Cards are referred to by their index in `catalogue()`, a stable order (the generator's set
// order, then the source rows); views and inventories carry that index.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace duelhall::engine::young_jedi {

enum class Side : uint8_t { kLight, kDark };
enum class CardType : uint8_t { kCharacter, kWeapon, kBattle };

// The "When dueling" texts of ruling Y7.
enum class DuelingText : uint8_t {
  kNone,
  kExtraHit,                // this attack does one extra hit
  kDrawOne,                 // you may draw one card for your dueling hand
  kDiscardToDrawTwo,        // you may discard this card to draw two cards for your dueling hand
  kRemoveHit,               // you may remove one hit from your character
  kDiscardForTwoExtraHits,  // you may discard this card for this attack to do two extra hits
  kNotRecorded,             // the card has dueling text the data lost: none here (Y7)
};

// Game-text abilities this ruleset uses (Y8), each with an amount and a matcher (see matches()).
enum class EffectKind : uint8_t {
  kNone,
  kBonusWhenFighting,           // power bonus when dueling/fighting a matching foe
  kBonusWhenUsing,              // power bonus when using a matching weapon
  kDamageWhenUsing,             // amount added to his DAMAGE when using a matching weapon
  kAddsDamageToDefeated,        // amount added to the DAMAGE of each character he defeats
  kMayUseSithLightsaber,        // may use any Sith Lightsaber
  kBonusToOtherJediInDuelHere,  // power bonus to any other of your Jedi dueling here
  kBonusIfFoughtThisTurn,       // power bonus if a matching character has fought this turn
  kDrawOnDefeat,                // when she defeats a character, you may draw a card
  // Y29: when he deploys to the planet `match` names ("Coruscant"), the opponent takes `amount`
  // DAMAGE, or his player may draw a card.
  kOpponentDamageOnDeployTo,
  kMayDrawOnDeployTo,
};

struct WeaponUse {
  const char* who = "";  // matcher of the characters in this user box
  int8_t power_dots = 0;
  int8_t destiny_cubes = 0;
};

struct Effect {
  EffectKind kind = EffectKind::kNone;
  int8_t amount = 0;
  const char* match = "";
};

struct CardData {
  const char* id;     // "5_31": set number and card number
  const char* title;  // "Darth Maul, Student of the Dark Side"
  uint8_t set;
  Side side;
  CardType type;
  std::array<uint8_t, 6> dots;  // deck-building dots per colour row: 0 none, 1 coloured, 2 white
  int8_t counters;              // deploy cost; -1 where the data has none
  int8_t power;
  int8_t damage;
  int8_t destiny;
  bool dueling;  // a dueling character (seed 003); on the Light Side, exactly the Jedi (FAQ, Y27)
  bool usable;   // false: needed data missing, never allowed in a deck
  DuelingText dueling_text;
  std::array<WeaponUse, 2> users;
  std::array<Effect, 3> effects;
};

std::span<const CardData> catalogue();
const CardData& card(uint16_t index);
// By id, or by title: a title shared by reprints (or by both sides: "Blaster") names the first
// usable printing, of `side` when given.
std::optional<uint16_t> find_card(std::string_view id_or_title,
                                  std::optional<Side> side = std::nullopt);

// The character's name: the title before the comma ("Darth Maul").
std::string_view character_name(const CardData& c);
// Whether a card text's name for a character (`written`: "Padme", "Ric Olie", "Darth sidious")
// names the character called `name` (character_name): the full name or its first words, without
// case or accents. Every "user" and "may be used by" text is compared through this.
bool names_character(std::string_view written, std::string_view name);
// Matchers as the generator writes them: alternatives joined by '|', each "name:X" (X names the
// character by names_character), "kw:X" (the title contains X), "*" (any character); an "other-"
// prefix excludes whatever `excluded` (the weapon's first user box) matches; "noduel:" before an
// alternative ("may not be used in a duel") matches nothing here. Case and accents are ignored.
bool matches(std::string_view matcher, const CardData& c, std::string_view excluded = {});
bool is_lightsaber(const CardData& weapon);
// Whether `user` may use `weapon`, and the weapon's power dots for that user (nullopt: may not).
std::optional<int> weapon_power_dots(const CardData& weapon, const CardData& user);

}  // namespace duelhall::engine::young_jedi
