#include "value_names.hpp"

#include <google/protobuf/descriptor.h>

#include <array>
#include <cctype>
#include <set>
#include <string_view>

#include "jedi_duel/cards.hpp"
#include "young_jedi/catalogue.hpp"

namespace duelhall::cli {

namespace pb = google::protobuf;

namespace {

// "ACTION_STEP" -> "action step", "DEPLOY_PHASE" -> "deploy".
std::string enum_words(std::string name) {
  constexpr std::string_view kSuffix = "_PHASE";
  if (name.size() > kSuffix.size() && name.ends_with(kSuffix)) name.resize(name.size() - kSuffix.size());
  for (char& c : name) {
    c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

// Force Battles declares its phases in a comment of proto/force_battles.proto, not as an enum.
std::optional<std::string> force_battles_phase(uint64_t value) {
  static constexpr std::array<const char*, 14> kNames = {
      "setup",      "opening GEAS", "attack choice", "target",    "defender pull",
      "attacker pull", "GEAS before the rolls", "Lightning answer", "reward", "placement",
      "stance",     "gift",         "kick take",     "over"};
  if (value >= kNames.size()) return std::nullopt;
  return kNames[value];
}

std::optional<std::string> phase_name(const pb::FieldDescriptor& f, uint64_t value) {
  if (f.file()->package() == "duelhall.force_battles") return force_battles_phase(value);
  const std::string full = f.file()->package() + ".Phase";
  const pb::EnumDescriptor* phases = pb::DescriptorPool::generated_pool()->FindEnumTypeByName(full);
  if (!phases) return std::nullopt;
  const pb::EnumValueDescriptor* v = phases->FindValueByNumber(static_cast<int>(value));
  if (!v) return std::nullopt;
  return enum_words(std::string(v->name()));
}

// Jedi Duel: cards 1..54 in every card field (0: no card).
std::optional<std::string> jedi_duel_card(const std::string& field, uint64_t value) {
  static const std::set<std::string> kCards = {"hand", "stance_card", "discard_top", "sensed_hand",
                                               "just_drawn", "card"};
  if (!kCards.contains(field) || value == 0 || value > engine::jedi_duel::kSecondJoker) {
    return std::nullopt;
  }
  return engine::jedi_duel::card_name(static_cast<engine::jedi_duel::Card>(value));
}

// Young Jedi: catalogue indices, or index + 1 where 0 means none (proto/young_jedi.proto).
std::optional<std::string> young_jedi_card(const std::string& field, uint64_t value) {
  static const std::set<std::string> kIndex = {"hand", "in_play", "dueling_hand", "dueling_pile",
                                               "draw_order", "discard_pile", "known_hand"};
  static const std::set<std::string> kPlusOne = {"discard_top", "attack_card", "text_card",
                                                 "planet_destiny", "first_player_destiny"};
  uint64_t index = value;
  if (kPlusOne.contains(field)) {
    if (value == 0) return std::nullopt;
    index = value - 1;
  } else if (!kIndex.contains(field)) {
    return std::nullopt;
  }
  if (index >= engine::young_jedi::catalogue().size()) return std::nullopt;
  std::string title = engine::young_jedi::card(static_cast<uint16_t>(index)).title;
  return "\"" + title + "\"";
}

}  // namespace

std::optional<std::string> value_name(const pb::FieldDescriptor& f, uint64_t value) {
  if (f.cpp_type() != pb::FieldDescriptor::CPPTYPE_UINT32) return std::nullopt;
  const std::string field(f.name());
  if (field == "phase") return phase_name(f, value);
  const std::string package(f.file()->package());
  if (package == "duelhall.jedi_duel") return jedi_duel_card(field, value);
  if (package == "duelhall.young_jedi") return young_jedi_card(field, value);
  return std::nullopt;
}

}  // namespace duelhall::cli
