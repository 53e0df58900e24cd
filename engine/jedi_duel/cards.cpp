#include "jedi_duel/cards.hpp"

namespace duelhall::engine::jedi_duel {

std::string card_name(Card c) {
  return std::string(kCardNames[c <= kSecondJoker ? c : kNoCard]);
}

const char* area_name(Area a) {
  return kAreaNames[a <= kLow ? a : kNoArea].data();
}

int Tables::defence_modifier(Area stance, Area attacked) const {
  const int steps = steps_between(stance, attacked);
  if (steps == 0 || stance == kNoArea || attacked == kNoArea) return 0;
  if (stance == kMiddle) return defence_middle_step;
  return steps == 1 ? defence_edge_one_step : defence_edge_two_steps;
}

Tables Tables::from(const Params& params) {
  Tables t;
  t.speed_own_area = static_cast<int>(params.get_int("speed_own_area"));
  t.speed_other_area = static_cast<int>(params.get_int("speed_other_area"));
  t.defence_middle_step = static_cast<int>(params.get_int("defence_middle_step"));
  t.defence_edge_one_step = static_cast<int>(params.get_int("defence_edge_one_step"));
  t.defence_edge_two_steps = static_cast<int>(params.get_int("defence_edge_two_steps"));
  t.fatigue_start = static_cast<int>(params.get_int("fatigue_start"));
  t.column_height = static_cast<int>(params.get_int("column_height"));
  return t;
}

std::vector<ParamSpec> jedi_duel_params() {
  return {
      ParamSpec::integer("speed_own_area", "J4: attack speed modifier into the attacker's own area",
                         1, 0, 10),
      ParamSpec::integer("speed_other_area", "J4: attack speed modifier into any other area", 2, 0,
                         10),
      ParamSpec::integer("defence_middle_step",
                         "J5: defensive modifier of a Middle Stance, one step away", 2, 0, 10),
      ParamSpec::integer("defence_edge_one_step",
                         "J5: defensive modifier of a High or Low Stance, one step away", 3, 0, 10),
      ParamSpec::integer("defence_edge_two_steps",
                         "J5: defensive modifier of a High or Low Stance, two steps away", 5, 0,
                         10),
      ParamSpec::integer("fatigue_start", "J9: starting fatigue, the top of the track", 21, 3, 60),
      ParamSpec::integer("column_height", "J9: fatigue points per column of the track", 7, 1, 30),
  };
}

}  // namespace duelhall::engine::jedi_duel
