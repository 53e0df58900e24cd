// Reading a setup's text (setup_text.hpp) and the steps it names.
#include "force_battles/setup_text.hpp"

#include <cctype>
#include <map>
#include <vector>

#include "force_battles/force_battles.hpp"
#include "force_battles/text.hpp"

namespace duelhall::engine::force_battles {
namespace {

std::string lower(std::string_view word) {
  std::string out(word);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t end = i;
    while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
    if (end > i) words.emplace_back(line.substr(i, end - i));
    i = end;
  }
  return words;
}

// The index of `word` among `count` names, or -1.
int index_of(const std::string& word, int count, std::string_view (*name)(int)) {
  for (int i = 0; i < count; ++i) {
    if (lower(name(i)) == word) return i;
  }
  return -1;
}

std::string_view side_word(int side) {
  return side == kLight ? "light" : "dark";
}
std::string_view hand_word(int hand) {
  return hand == kLeft ? "left" : "right";
}

// Reads `n` counts of at most 99 into `out`; false when the line holds anything else.
template <size_t N>
bool read_counts(const std::vector<std::string>& words, std::array<uint8_t, N>& out) {
  if (words.size() != N + 1) return false;
  for (size_t i = 0; i < N; ++i) {
    const std::string& w = words[i + 1];
    if (w.empty() || w.size() > 2) return false;
    for (const char ch : w) {
      if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    }
    out[i] = static_cast<uint8_t>(std::stoi(w));
  }
  return true;
}

}  // namespace

std::optional<SetupPlan> read_setup_text(std::string_view text, std::string& error) {
  if (text.size() > kMaxSetupText) {
    error = "a setup text holds at most " + std::to_string(kMaxSetupText) + " bytes";
    return std::nullopt;
  }
  std::map<std::string, std::vector<std::string>> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::vector<std::string> words = words_of(text.substr(start, end - start));
    // A line starting with '#' is the player's note, as the web client's reader skips it.
    if (!words.empty() && words[0][0] != '#') {
      words[0] = lower(words[0]);
      const std::string key = words[0];
      if (!lines.emplace(key, std::move(words)).second) {
        error = "the setup names '" + key + "' twice";
        return std::nullopt;
      }
    }
    start = end + 1;
  }
  SetupPlan plan;
  const auto one = [&](const std::string& key) -> std::string {
    auto it = lines.find(key);
    return it != lines.end() && it->second.size() == 2 ? lower(it->second[1]) : std::string();
  };
  const auto number = [&](const std::string& key, uint8_t& out) {
    std::array<uint8_t, 1> value{};
    auto it = lines.find(key);
    if (it == lines.end() || !read_counts(it->second, value)) return false;
    out = value[0];
    return true;
  };
  const std::string side = one("side");
  const std::string hand = one("hand");
  const int colour = index_of(one("colour"), kColours, colour_name);
  if (side != "light" && side != "dark") {
    error = "the setup needs a line 'side light' or 'side dark'";
  } else if (hand != "left" && hand != "right") {
    error = "the setup needs a line 'hand left' or 'hand right'";
  } else if (colour < 0) {
    error = "the setup needs a line 'colour <green|orange|blue|red|purple|yellow>'";
  } else if (!lines.count("spheres") || !read_counts(lines["spheres"], plan.spheres)) {
    error = "the setup needs a line 'spheres' with 7 counts (HL HR center LT RT LL RL)";
  } else if (!number("att", plan.att) || !number("def", plan.def)) {
    error = "the setup needs the lines 'att <n>' and 'def <n>'";
  } else if (!lines.count("geas") || !read_counts(lines["geas"], plan.geas)) {
    error = "the setup needs a line 'geas' with 13 counts, Hide to Rage";
  }
  if (!error.empty()) return std::nullopt;
  plan.side = side == "light" ? kLight : kDark;
  plan.hand = hand == "left" ? kLeft : kRight;
  plan.colour = static_cast<uint8_t>(colour);
  if (auto it = lines.find("free"); it != lines.end()) {
    std::string name;
    for (size_t i = 1; i < it->second.size(); ++i) {
      if (i > 1) name += ' ';
      name += lower(it->second[i]);
    }
    const int geas = index_of(name, kGeasCount, geas_name);
    if (geas < 0) {
      error = "'free' names no GEAS: '" + name + "'";
      return std::nullopt;
    }
    plan.free_geas = static_cast<int8_t>(geas);
  }
  return plan;
}

std::optional<Action> plan_step(const SetupPlan& plan, uint8_t stage) {
  if (stage == kStageSide) return Action::make(kSetupSide, plan.side);
  if (stage == kStageHand) return Action::make(kSetupHand, plan.hand);
  if (stage == kStageColour) return Action::make(kSetupColour, plan.colour);
  if (stage < kStageAtt) {
    const int sphere = stage - kStageSpheres;
    return Action::make(kSetupSphere, uint8_t(sphere), plan.spheres[size_t(sphere)]);
  }
  if (stage == kStageAtt) return Action::make(kSetupAtt, plan.att);
  if (stage == kStageDef) return Action::make(kSetupDef, plan.def);
  if (stage < kStageFreeGeas) {
    const int geas = stage - kStageGeas;
    return Action::make(kSetupGeas, uint8_t(geas), plan.geas[size_t(geas)]);
  }
  if (stage == kStageFreeGeas && plan.free_geas >= 0) {
    return Action::make(kSetupFreeGeas, static_cast<uint8_t>(plan.free_geas));
  }
  return std::nullopt;
}

std::string setup_text(const SetupPlan& plan) {
  std::string out = text("side ", side_word(plan.side), "\nhand ", hand_word(plan.hand),
                         "\ncolour ", colour_name(plan.colour), "\nspheres");
  for (const uint8_t n : plan.spheres) out += text(" ", n);
  out += text("\natt ", plan.att, "\ndef ", plan.def, "\ngeas");
  for (const uint8_t n : plan.geas) out += text(" ", n);
  out += "\n";
  if (plan.free_geas >= 0) out += text("free ", geas_name(plan.free_geas), "\n");
  return out;
}

}  // namespace duelhall::engine::force_battles
