// Card texts that name a user or a bonus, read as the cards mean them: every such text of the
// catalogue names at least one card, and the weapons whose names the data spells differently
// from their users (Padme, Ric Olie, "battele droid") arm them in a duel.
#include <string>

#include "scenario.hpp"

using namespace yj_test;

namespace {

// The alternatives of a matcher, without the "other-" exclusion or the "noduel:" ban: the card
// kinds the text names.
std::vector<std::string> named_kinds(std::string_view matcher) {
  std::vector<std::string> out;
  while (!matcher.empty()) {
    const size_t bar = matcher.find('|');
    std::string_view alt = matcher.substr(0, bar);
    matcher = bar == std::string_view::npos ? std::string_view{} : matcher.substr(bar + 1);
    if (alt.starts_with("noduel:")) alt.remove_prefix(7);
    if (alt.starts_with("other-")) alt.remove_prefix(6);
    out.emplace_back(alt);
  }
  return out;
}

bool any_card(const std::string& kind, bool (*fits)(const CardData&)) {
  for (const CardData& c : catalogue()) {
    if (fits(c) && matches(kind, c)) return true;
  }
  return false;
}

bool is_character(const CardData& c) {
  return c.type == CardType::kCharacter;
}
bool is_used_card(const CardData& c) {
  return c.type != CardType::kCharacter;  // a weapon, or a battle card "used" in a fight
}

bool is_bonus(EffectKind kind) {
  return kind == EffectKind::kBonusWhenFighting || kind == EffectKind::kBonusWhenUsing ||
         kind == EffectKind::kDamageWhenUsing || kind == EffectKind::kBonusIfFoughtThisTurn ||
         kind == EffectKind::kBonusToOtherJediInDuelHere;
}

// Light defends with `light` (its weapon at position 1) against Darth Maul: her dueling hand.
size_t light_defender_hand(std::vector<uint16_t> light) {
  auto s = duel_position(1, std::move(light), maul(), copies(30, "1_2"), copies(30, "1_71"));
  apply_ok(*s, 1, act(ActionKind::kInitiateDuel, 0, 1, 0));
  REQUIRE(s->table().phase == Phase::kDefenderWeapon);
  apply_ok(*s, 0, act(ActionKind::kArmDefender, 1));
  return s->table().players[0].dueling_hand.size();
}

}  // namespace

TEST_CASE("Card users: every user box and bonus in the catalogue names at least one card") {
  int texts = 0;
  for (const CardData& c : catalogue()) {
    for (const WeaponUse& box : c.users) {
      if (std::string_view(box.who).empty()) continue;
      for (const std::string& kind : named_kinds(box.who)) {
        INFO(c.id << " " << c.title << ": user '" << kind << "'");
        bool named = false;
        for (const CardData& user : catalogue()) {
          named = named || (user.side == c.side && is_character(user) && matches(kind, user));
        }
        CHECK(named);
        ++texts;
      }
      // The box as a whole arms someone with its dots, unless it bans the duel.
      if (std::string_view(box.who).starts_with("noduel:")) continue;
      bool armed = false;
      for (const CardData& user : catalogue()) {
        armed = armed || weapon_power_dots(c, user) == box.power_dots;
      }
      INFO(c.id << " " << c.title << ": box '" << box.who << "'");
      CHECK(armed);
    }
    for (const Effect& e : c.effects) {
      if (e.kind == EffectKind::kOpponentDamageOnDeployTo ||
          e.kind == EffectKind::kMayDrawOnDeployTo ||
          e.kind == EffectKind::kMayDeployFromDeckOnDeployTo) {
        const std::string planet = e.planet;
        CHECK((planet == "Tatooine" || planet == "Naboo" || planet == "Coruscant"));
        // What a search may deploy: characters of the searcher's side (Y29).
        for (const std::string& kind : named_kinds(e.match)) {
          INFO(c.id << " " << c.title << ": searches for '" << kind << "'");
          bool named = false;
          for (const CardData& found : catalogue()) {
            named = named || (found.side == c.side && is_character(found) && matches(kind, found));
          }
          CHECK(named);
          ++texts;
        }
        continue;
      }
      if (!is_bonus(e.kind)) continue;
      const bool used =
          e.kind == EffectKind::kBonusWhenUsing || e.kind == EffectKind::kDamageWhenUsing;
      for (const std::string& kind : named_kinds(e.match)) {
        INFO(c.id << " " << c.title << ": bonus names '" << kind << "'");
        CHECK(any_card(kind, used ? is_used_card : is_character));
        ++texts;
      }
    }
  }
  CHECK(texts > 150);
}

TEST_CASE("Card users: names compare without case or accents, by full name or first name") {
  CHECK(names_character("Padme", "Padmé Naberrie"));
  CHECK(names_character("Ric Olie", "Ric Olié"));
  CHECK(names_character("Darth sidious", "Darth Sidious"));
  CHECK(names_character("Padmé Naberrie", "Padme Naberrie"));
  CHECK_FALSE(names_character("Padme", "Padmeos"));
  CHECK_FALSE(names_character("Darth Maul", "Darth"));
  CHECK_FALSE(names_character("", "Padmé Naberrie"));
}

TEST_CASE("Ascension Gun: its user box 'Padme' is every Padmé, who duels with its power dot") {
  const CardData& gun = card(id("Ascension Gun"));
  for (const char* padme : {"1_5", "2_5", "3_5", "6_P10", "7_20"}) {
    INFO(padme);
    CHECK(weapon_power_dots(gun, card(id(padme))) == 1);
  }
  // Padmé Naberrie, Handmaiden: power 3 and the gun's dot.
  CHECK(light_defender_hand(cards({"1_5", "Ascension Gun"})) == 4);
}

TEST_CASE("Gian Speeder: its user box 'Ric Olie' is every Ric Olié, who duels with its dot") {
  for (const char* ric : {"1_14", "2_23", "3_13", "5_9"}) {
    INFO(ric);
    CHECK(weapon_power_dots(card(id("Gian Speeder")), card(id(ric))) == 1);
    // Power 4 and the speeder's dot.
    CHECK(light_defender_hand(cards({ric, "Gian Speeder"})) == 5);
  }
}

TEST_CASE("STAP 3_114: the data's 'battele droid' is a battle droid, who duels with its dots") {
  const CardData& stap = card(id("3_114"));
  CHECK(std::string_view(stap.users[0].who) == "kw:battle droid");
  // Qui-Gon challenges Battle Droid: Pilot, MTT Division (power 2), who takes the STAP (2 dots).
  auto s =
      duel_position(0, qui_gon(), cards({"1_97", "3_114"}), copies(30, "1_2"), copies(30, "1_71"));
  apply_ok(*s, 0, act(ActionKind::kInitiateDuel, 0, 1, 0));
  REQUIRE(s->table().phase == Phase::kDefenderWeapon);
  CHECK(legal(*s, 1, act(ActionKind::kArmDefender, 1)));
  apply_ok(*s, 1, act(ActionKind::kArmDefender, 1));
  CHECK(s->table().players[1].dueling_hand.size() == 4);
}

TEST_CASE("Neimoidian: the data's 'Neimoidean' titles are Neimoidians for their weapons") {
  const CardData& rifle = card(id("1_118"));  // Battle Droid Blaster Rifle: any Neimoidian
  for (const char* neimoidian : {"6_P18", "6_P19"}) {
    INFO(neimoidian);
    CHECK(weapon_power_dots(rifle, card(id(neimoidian))) == 1);
  }
}

TEST_CASE("May not be used in a duel: Hold-Out Blaster and Tatooine Backpack arm nobody here") {
  for (const char* weapon : {"8_21", "8_48", "8_50"}) {
    const CardData& w = card(id(weapon));
    for (const CardData& user : catalogue()) {
      INFO(weapon << " " << user.id);
      CHECK_FALSE(weapon_power_dots(w, user));
    }
  }
}

TEST_CASE("Watto's Datapad: 'or any Nikto, Pacithhip, or Quarren' names three kinds of character") {
  // The second box reads "Gragra, Bib Fortuna, or any Nikto, Pacithhip, or Quarren": "any"
  // reaches the end of its list, so a Pacithhip or a Quarren is anyone whose title says so, not
  // only the character called Pacithhip or Quarren.
  const CardData& datapad = card(id("8_51"));
  for (const char* user : {"1_86", "1_84", "3_94", "8_43", "3_95", "3_89"}) {
    INFO(user);
    CHECK(weapon_power_dots(datapad, card(id(user))) == 1);
  }
  // Characters of those kinds under other names (a test's own cards, not the catalogue's).
  for (const char* title : {"Tessek, Quarren Accountant", "Ak-rev, Pacithhip Mercenary"}) {
    CardData kind = card(id("3_89"));
    kind.id = "test";
    kind.title = title;
    INFO(title);
    CHECK(weapon_power_dots(datapad, kind) == 1);
  }
  CardData no_kind = card(id("3_89"));
  no_kind.id = "test";
  no_kind.title = "Tessek, Accountant";
  CHECK_FALSE(weapon_power_dots(datapad, no_kind));
}
