// Registration: name, parameters as data, bounds and bots.
#include "force_battles/bot.hpp"
#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {

void register_force_battles(Registry& registry) {
  RulesetInfo info;
  info.name = "force_battles";
  info.display_name = "Force Battles";
  info.summary = "A two-player dice duel on a body board: Light and Dark, thirteen Force powers.";
  info.min_seats = info.max_seats = 2;
  info.params = {
      ParamSpec::choice("competency", "competency level of both players (F2)",
                        {"learner", "initiate", "templar", "diamedes"}),
      ParamSpec::integer("round_limit", "rounds before the board count decides; 0 = none", 0, 0,
                         kRoundCap),
  };
  info.view_message = "duelhall.force_battles.View";
  // Bound (docs/rules/force-battles.md, F21): 2 x 27 setup steps plus kRoundCap rounds of at
  // most kRoundDecisions each. Per round, with at most 50 counters a player: target moves and
  // pulls each spend a counter, and a Sight or Mind Trick before the rolls (F38, each once a
  // round) sends the defender's pulled counters back, so her pulls count up to three times
  // (<= 250); Lightning throws and Absorb answers each spend a GEAS counter and every other GEAS
  // is once per round (<= 140 with the passes between them), placements and stances place at
  // least one counter each (<= 130), the rest (the gift among them) < 40.
  constexpr int kRoundDecisions = 600;
  info.max_game_length = 2 * kStageDone + kRoundCap * kRoundDecisions;
  info.phrases = &phrase_book();
  info.create = [](const MatchConfig& config) {
    return std::make_unique<ForceBattlesState>(config);
  };
  // A seat's option is a setup as text (setup_text.hpp), a player's saved setup; empty: the seat
  // sets up in the match. Checked by making it on a fresh board at this competency.
  info.check_seat_option = [](const Params& params,
                              const std::string& option) -> std::optional<std::string> {
    if (option.empty()) return std::nullopt;
    std::string error;
    const std::optional<SetupPlan> plan = read_setup_text(option, error);
    if (!plan) return error;
    MatchConfig config;
    config.ruleset = "force_battles";
    config.params = params;
    ForceBattlesState trial(config);
    return trial.preset_setup(0, *plan);
  };
  info.bot_levels = {"random", "heuristic", "expert"};
  info.make_bot = [](std::string_view level) -> std::unique_ptr<Bot> {
    if (level == "heuristic") return std::make_unique<HeuristicBot>();
    return nullptr;  // the registry's RandomBot
  };
  registry.add(std::move(info));
}

}  // namespace duelhall::engine::force_battles
