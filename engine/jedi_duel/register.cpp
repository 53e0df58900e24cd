#include "jedi_duel/heuristic_bot.hpp"
#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {

void register_jedi_duel(Registry& registry) {
  RulesetInfo info;
  info.name = "jedi_duel";
  info.display_name = "Jedi Duel";
  info.summary =
      "Lightsaber duel for 2-6 players with playing cards: stances, fast attacks, Force powers.";
  info.min_seats = 2;
  info.max_seats = 6;
  info.params = jedi_duel_params();
  info.view_message = "duelhall.jedi_duel.View";
  // J15 ends the game after as many passes through the deck as players; docs/rules/jedi-duel.md
  // ("Game length") derives this bound from the measured longest random games.
  info.max_game_length = 3000;
  info.create = [](const MatchConfig& config) { return std::make_unique<JediDuelState>(config); };
  info.bot_levels = {"random", "heuristic", "expert"};
  info.phrases = &phrase_book();
  info.labels_by_code = true;  // action_label reads only the action's kind and arguments
  info.make_bot = [](std::string_view level) -> std::unique_ptr<Bot> {
    if (level == "heuristic") return std::make_unique<HeuristicBot>();
    return nullptr;  // the registry's RandomBot
  };
  registry.add(std::move(info));
}

}  // namespace duelhall::engine::jedi_duel
