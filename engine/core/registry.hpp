// Rulesets are registered by a short name with a metadata record, so that the server builds a
// match from a name and never switches on the game. A Registry is an ordinary object (the engine
// keeps no global state); `builtin_registry()` returns one holding every ruleset of the project.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bot.hpp"
#include "core/params.hpp"
#include "core/state.hpp"

namespace duelhall::engine {

struct RulesetInfo {
  std::string name;          // short name used on the wire: "jedi_duel"
  std::string display_name;  // "Jedi Duel"
  std::string summary;       // one sentence for the lobby
  int min_seats = 2;
  int max_seats = 2;
  std::vector<ParamSpec> params;
  std::string view_message;  // fully qualified proto message of the view: "duelhall.jedi_duel.View"
  int max_game_length = 10'000;  // no game may take more player actions than this
  // The templates its events are said with (core/phrase.hpp); null when they are said as text.
  const PhraseBook* phrases = nullptr;

  std::function<std::unique_ptr<State>(const MatchConfig&)> create;
  // Checks one seat's setup text (a deck list) before the match starts; nullopt when fine.
  // Null when the ruleset takes no per-seat setup.
  std::function<std::optional<std::string>(const Params&, const std::string&)> check_seat_option;
  // Checks every seat's setup text together, by seat (a Light Side deck for seat 0); nullopt
  // when fine. Null when the seats' options need no joint check.
  std::function<std::optional<std::string>(const Params&, const std::vector<std::string>&)>
      check_seat_options;
  // Bot levels this ruleset offers, the first being the default ("random", "heuristic",
  // "expert"). "expert" is built by the registry, not by make_bot.
  std::vector<std::string> bot_levels = {"random"};
  // Action kinds that concede the match. Random play (the random bot, the test harness, the
  // benchmark) avoids them while another action exists, so that random games are real games.
  std::vector<uint8_t> resign_kinds;
  // An action's label depends on its code alone, never on the position, the seat or the match
  // (the random-play harness checks it): the server then tells a client each label once per
  // connection instead of once per match (docs/protocol.md, protocol 3).
  bool labels_by_code = false;
  std::function<std::unique_ptr<Bot>(std::string_view level)> make_bot;
};

struct CreateResult {
  std::unique_ptr<State> state;
  std::string error;  // set when state is null
};

class Registry {
 public:
  void add(RulesetInfo info);
  const RulesetInfo* find(std::string_view name) const;
  const std::vector<RulesetInfo>& all() const { return rulesets_; }

  // Validates everything a host or player may get wrong and says what, in `error`.
  CreateResult create(const std::string& ruleset, int seats, const Seed& seed,
                      const std::map<std::string, std::string>& raw_params,
                      std::vector<std::string> seat_options = {}) const;
  // Rebuilds a state from State::serialize(); throws DecodeError on bad input.
  std::unique_ptr<State> deserialize(std::string_view bytes) const;
  // A bot of `level` for `ruleset`; an unknown level gives the random bot. "expert" (for the
  // rulesets that list it) is the generic search of core/expert_bot.hpp with `budget` per move,
  // rolling out with the ruleset's "heuristic" bot when it has one.
  std::unique_ptr<Bot> make_bot(std::string_view ruleset, std::string_view level,
                                const SearchBudget& budget = {}) const;

 private:
  std::vector<RulesetInfo> rulesets_;
};

Registry builtin_registry();

// Rebuilds a match from its config and its player steps (the seed makes the chance steps).
// Returns null and says why in `error` when a step is refused.
std::unique_ptr<State> replay(const Registry& registry, const MatchConfig& config,
                              const std::vector<Step>& steps, std::string& error);

}  // namespace duelhall::engine
