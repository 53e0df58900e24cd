#include "young_jedi/catalogue.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace duelhall::engine::young_jedi {
namespace {

constexpr CardData kCards[] = {
#include "young_jedi/catalogue_data.inc"
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool icontains(std::string_view text, std::string_view part) {
  if (part.size() > text.size()) return false;
  for (size_t i = 0; i + part.size() <= text.size(); ++i) {
    if (iequals(text.substr(i, part.size()), part)) return true;
  }
  return false;
}

// Card text without case or accents, for comparing: the data writes "Padme" and "Padmé",
// "Ric Olie" and "Ric Olié" (UTF-8; its only accented letters are Latin-1 ones).
std::string folded(std::string_view text) {
  static constexpr std::string_view kLatin1Base =  // U+00C0..U+00FF without their accents
      "aaaaaaaceeeeiiiidnooooo*ouuuuyssaaaaaaaceeeeiiiidnooooo/ouuuuysy";
  static_assert(kLatin1Base.size() == 64);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (byte == 0xC3 && next >= 0x80 && next <= 0xBF) {
      out.push_back(kLatin1Base[next - 0x80]);
      ++i;
    } else {
      out.push_back(static_cast<char>(std::tolower(byte)));
    }
  }
  return out;
}

}  // namespace

bool names_character(std::string_view written, std::string_view name) {
  // The card texts name a character by her full name or by the first part of it ("Padme" on
  // the Ascension Gun is Padmé Naberrie, "Qui-Gon" is Qui-Gon Jinn), in the data's spellings.
  const std::string w = folded(written);
  const std::string n = folded(name);
  return !w.empty() && (n == w || (n.starts_with(w) && n[w.size()] == ' '));
}

namespace {

bool matches_one(std::string_view alt, const CardData& c) {
  // "(may not be used in a duel)": whoever the box names, never in a duel, and a duel is the
  // only place this ruleset uses a weapon.
  if (alt.starts_with("noduel:")) return false;
  if (alt == "*") return c.type == CardType::kCharacter;
  if (alt.starts_with("name:")) return names_character(alt.substr(5), character_name(c));
  // FAQ: a character is a Gungan, a Podracer Pilot... only if its title or subtitle says so;
  // Sebulba, Bad-Tempered Dug is the one exception, a Podracer pilot.
  if (alt.starts_with("kw:")) {
    std::string_view keyword = alt.substr(3);
    if (iequals(keyword, "podracer pilot") && iequals(c.id, "1_73")) return true;
    // The Jedi are the Light Side's dueling characters, which the catalogue decides once (by
    // title, never Anakin: Y27).
    if (iequals(keyword, "jedi")) return c.side == Side::kLight && c.dueling;
    return folded(c.title).find(folded(keyword)) != std::string::npos;
  }
  return false;
}

// The catalogue's position of `c`, or -1 for a card that is not in it (a test's own data).
int index_of(const CardData& c) {
  const std::less<const CardData*> before;
  if (before(&c, std::begin(kCards)) || !before(&c, std::end(kCards))) return -1;
  return static_cast<int>(&c - std::begin(kCards));
}

bool matches_uncached(std::string_view matcher, const CardData& c, std::string_view excluded) {
  while (!matcher.empty()) {
    size_t bar = matcher.find('|');
    std::string_view alt = matcher.substr(0, bar);
    matcher = bar == std::string_view::npos ? std::string_view{} : matcher.substr(bar + 1);
    if (alt.starts_with("other-")) {
      if (matches_one(alt.substr(6), c) && !matches_uncached(excluded, c, {})) return true;
    } else if (matches_one(alt, c)) {
      return true;
    }
  }
  return false;
}

std::optional<int> weapon_power_dots_uncached(const CardData& weapon, const CardData& user) {
  if (weapon.type != CardType::kWeapon || user.type != CardType::kCharacter) return std::nullopt;
  if (weapon.side != user.side) return std::nullopt;
  const std::string_view first = weapon.users[0].who;
  if (matches_uncached(first, user, {})) return weapon.users[0].power_dots;
  if (matches_uncached(weapon.users[1].who, user, first)) return weapon.users[1].power_dots;
  // "May use any Sith Lightsaber": no user box names her, so no power dots (ruling Y15).
  if (icontains(weapon.title, "sith lightsaber")) {
    for (const Effect& e : user.effects) {
      if (e.kind == EffectKind::kMayUseSithLightsaber) return 0;
    }
  }
  return std::nullopt;
}

// What play asks of the card text again and again (a search asks it millions of times), worked
// out once from the constant catalogue: which cards each effect's matcher names, which weapons
// are lightsabers, and every weapon's power dots for every character. Immutable once built
// (a function-local static, so built once even when several threads ask first).
struct TextAnswers {
  static constexpr int8_t kMayNotUse = INT8_MIN;  // dots themselves are small numbers
  static constexpr size_t kCount = std::size(kCards);
  std::unordered_map<const char*, std::vector<bool>> effect_targets;  // by matcher address
  std::vector<bool> lightsaber = std::vector<bool>(kCount);
  std::vector<int16_t> weapon_row = std::vector<int16_t>(kCount, -1);
  std::vector<int8_t> dots;  // weapon_row * kCount + user

  TextAnswers() {
    for (const CardData& owner : kCards) {
      for (const Effect& e : owner.effects) {
        if (e.kind == EffectKind::kNone || effect_targets.contains(e.match)) continue;
        std::vector<bool>& targets = effect_targets[e.match];
        targets.resize(kCount);
        for (size_t i = 0; i < kCount; ++i) targets[i] = matches_uncached(e.match, kCards[i], {});
      }
    }
    int16_t rows = 0;
    for (size_t w = 0; w < kCount; ++w) {
      const CardData& weapon = kCards[w];
      if (weapon.type != CardType::kWeapon) continue;
      lightsaber[w] = icontains(weapon.title, "lightsaber");
      weapon_row[w] = rows++;
      for (const CardData& user : kCards) {
        dots.push_back(weapon_power_dots_uncached(weapon, user).value_or(kMayNotUse));
      }
    }
  }
};

const TextAnswers& text_answers() {
  static const TextAnswers answers;
  return answers;
}

}  // namespace

std::span<const CardData> catalogue() {
  return kCards;
}

const CardData& card(uint16_t index) {
  return kCards[index];
}

std::optional<uint16_t> find_card(std::string_view id_or_title, std::optional<Side> side) {
  std::optional<uint16_t> by_title;
  for (uint16_t i = 0; i < std::size(kCards); ++i) {
    if (iequals(kCards[i].id, id_or_title)) return i;
    if (!by_title && kCards[i].usable && (!side || kCards[i].side == *side) &&
        iequals(kCards[i].title, id_or_title)) {
      by_title = i;
    }
  }
  if (!by_title) {
    for (uint16_t i = 0; i < std::size(kCards); ++i) {
      if (iequals(kCards[i].title, id_or_title)) return i;
    }
  }
  return by_title;
}

std::string_view character_name(const CardData& c) {
  std::string_view title = c.title;
  return title.substr(0, title.find(','));
}

bool matches(std::string_view matcher, const CardData& c, std::string_view excluded) {
  if (excluded.empty()) {
    const int index = index_of(c);
    const auto& targets = text_answers().effect_targets;
    if (auto it = targets.find(matcher.data()); index >= 0 && it != targets.end()) {
      return it->second[static_cast<size_t>(index)];
    }
  }
  return matches_uncached(matcher, c, excluded);
}

bool is_lightsaber(const CardData& weapon) {
  const int index = index_of(weapon);
  if (index >= 0) return text_answers().lightsaber[static_cast<size_t>(index)];
  return weapon.type == CardType::kWeapon && icontains(weapon.title, "lightsaber");
}

std::optional<int> weapon_power_dots(const CardData& weapon, const CardData& user) {
  const int w = index_of(weapon);
  const int u = index_of(user);
  if (w < 0 || u < 0) return weapon_power_dots_uncached(weapon, user);
  const TextAnswers& answers = text_answers();
  const int16_t row = answers.weapon_row[static_cast<size_t>(w)];
  if (row < 0) return std::nullopt;  // not a weapon
  const int8_t dots = answers.dots[static_cast<size_t>(row) * TextAnswers::kCount + u];
  if (dots == TextAnswers::kMayNotUse) return std::nullopt;
  return dots;
}

}  // namespace duelhall::engine::young_jedi
