#include "young_jedi/register.hpp"

#include "young_jedi/bot.hpp"
#include "young_jedi/deck.hpp"
#include "young_jedi/phrases.hpp"
#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {

void register_young_jedi(Registry& registry) {
  RulesetInfo info;
  info.name = "young_jedi";
  info.display_name = "Young Jedi: Duel of the Fates";
  info.summary = "Lightsaber duels of the Young Jedi card game, Light Side against Dark Side";
  info.min_seats = 2;
  info.max_seats = 2;
  info.view_message = "duelhall.young_jedi.View";
  // Every turn draws a card from the active player's deck and nothing ever returns cards to a
  // deck for good, so each player has at most 61 turns (122 in all). Per player and game at most
  // 60 deploys; per turn one end-deploy and one duel choice; per duel, each attack or block plays
  // a dueling card (at most 120 cards) and each hit adds at most one take-hit and one text
  // choice: 122 * (2 + 3 * 120 + 3) + 120 < 45,000 (ruling Y22).
  info.max_game_length = 45'000;
  info.phrases = &phrase_book();
  info.create = [](const MatchConfig& config) { return create_state(config); };
  info.check_seat_option = [](const Params&, const std::string& option) {
    return check_deck_option(option);
  };
  info.check_seat_options = [](const Params&, const std::vector<std::string>& options) {
    return check_seat_decks(options);
  };
  info.bot_levels = {"random", "heuristic", "expert"};
  info.resign_kinds = {static_cast<uint8_t>(ActionKind::kConcede)};
  info.make_bot = [](std::string_view level) -> std::unique_ptr<Bot> {
    if (level == "heuristic") return std::make_unique<HeuristicBot>();
    return nullptr;  // the registry's RandomBot, which avoids conceding
  };
  registry.add(std::move(info));
}

}  // namespace duelhall::engine::young_jedi
