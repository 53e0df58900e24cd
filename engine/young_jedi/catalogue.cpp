#include "young_jedi/catalogue.hpp"

#include <algorithm>
#include <cctype>

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

bool matches_one(std::string_view alt, const CardData& c) {
  if (alt == "*") return c.type == CardType::kCharacter;
  if (alt.starts_with("name:")) return iequals(character_name(c), alt.substr(5));
  // FAQ: a character is a Gungan, a Podracer Pilot... only if its title or subtitle says so;
  // Sebulba, Bad-Tempered Dug is the one exception, a Podracer pilot.
  if (alt.starts_with("kw:")) {
    std::string_view keyword = alt.substr(3);
    if (iequals(keyword, "podracer pilot") && iequals(c.id, "1_73")) return true;
    // The Jedi are the Light Side's dueling characters, which the catalogue decides once (by
    // title, never Anakin: Y27).
    if (iequals(keyword, "jedi")) return c.side == Side::kLight && c.dueling;
    return icontains(c.title, keyword);
  }
  return false;
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
  while (!matcher.empty()) {
    size_t bar = matcher.find('|');
    std::string_view alt = matcher.substr(0, bar);
    matcher = bar == std::string_view::npos ? std::string_view{} : matcher.substr(bar + 1);
    if (alt.starts_with("other-")) {
      if (matches_one(alt.substr(6), c) && !matches(excluded, c)) return true;
    } else if (matches_one(alt, c)) {
      return true;
    }
  }
  return false;
}

bool is_lightsaber(const CardData& weapon) {
  return weapon.type == CardType::kWeapon && icontains(weapon.title, "lightsaber");
}

std::optional<int> weapon_power_dots(const CardData& weapon, const CardData& user) {
  if (weapon.type != CardType::kWeapon || user.type != CardType::kCharacter) return std::nullopt;
  if (weapon.side != user.side) return std::nullopt;
  const std::string_view first = weapon.users[0].who;
  if (matches(first, user)) return weapon.users[0].power_dots;
  if (matches(weapon.users[1].who, user, first)) return weapon.users[1].power_dots;
  // "May use any Sith Lightsaber": no user box names her, so no power dots (ruling Y15).
  if (icontains(weapon.title, "sith lightsaber")) {
    for (const Effect& e : user.effects) {
      if (e.kind == EffectKind::kMayUseSithLightsaber) return 0;
    }
  }
  return std::nullopt;
}

}  // namespace duelhall::engine::young_jedi
