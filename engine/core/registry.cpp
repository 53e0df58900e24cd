#include "core/registry.hpp"

#include <algorithm>

#include "core/expert_bot.hpp"
#include "core/serialize_config.hpp"

namespace duelhall::engine {
namespace {

// The ruleset's checks of the seats' setup texts (deck lists): nullopt when they are fine.
std::optional<std::string> seat_options_problem(const RulesetInfo& info, const Params& params,
                                                const std::vector<std::string>& seat_options) {
  if (info.check_seat_option) {
    for (size_t i = 0; i < seat_options.size(); ++i) {
      if (auto problem = info.check_seat_option(params, seat_options[i])) {
        return "seat " + std::to_string(i) + ": " + *problem;
      }
    }
  }
  if (info.check_seat_options) return info.check_seat_options(params, seat_options);
  return std::nullopt;
}

}  // namespace

void Registry::add(RulesetInfo info) {
  rulesets_.push_back(std::move(info));
}

const RulesetInfo* Registry::find(std::string_view name) const {
  for (const auto& info : rulesets_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

CreateResult Registry::create(const std::string& ruleset, int seats, const Seed& seed,
                              const std::map<std::string, std::string>& raw_params,
                              std::vector<std::string> seat_options) const {
  const RulesetInfo* info = find(ruleset);
  if (!info) return {nullptr, "unknown ruleset '" + ruleset + "'"};
  if (seats < info->min_seats || seats > info->max_seats) {
    return {nullptr, info->display_name + " takes " + std::to_string(info->min_seats) + " to " +
                         std::to_string(info->max_seats) + " seats"};
  }
  MatchConfig config;
  config.ruleset = ruleset;
  config.seats = seats;
  config.seed = seed;
  std::string error;
  if (!Params::resolve(info->params, raw_params, config.params, error)) return {nullptr, error};
  if (seat_options.size() > static_cast<size_t>(seats))
    return {nullptr, "more seat options than seats"};
  seat_options.resize(static_cast<size_t>(seats));
  if (auto problem = seat_options_problem(*info, config.params, seat_options)) {
    return {nullptr, *problem};
  }
  config.seat_options = std::move(seat_options);
  return {info->create(config), {}};
}

std::unique_ptr<State> Registry::deserialize(std::string_view bytes) const {
  ByteReader in(bytes);
  std::map<std::string, std::string> raw;
  MatchConfig config = read_config(in, raw);
  const RulesetInfo* info = find(config.ruleset);
  if (!info) throw DecodeError("unknown ruleset '" + config.ruleset + "'");
  if (config.seats < info->min_seats || config.seats > info->max_seats) {
    throw DecodeError("seat count out of range");
  }
  std::string error;
  if (!Params::resolve(info->params, raw, config.params, error)) throw DecodeError(error);
  if (config.seat_options.size() != static_cast<size_t>(config.seats)) {
    throw DecodeError("seat options do not match the seats");
  }
  // Stored bytes get the checks a host's request gets: a ruleset builds its state only from a
  // config it has accepted (an unchecked deck list is not something it can set up).
  if (auto problem = seat_options_problem(*info, config.params, config.seat_options)) {
    throw DecodeError(*problem);
  }
  auto state = info->create(config);
  state->load(in);
  return state;
}

std::unique_ptr<Bot> Registry::make_bot(std::string_view ruleset, std::string_view level,
                                        const SearchBudget& budget) const {
  const RulesetInfo* info = find(ruleset);
  if (info && level == "expert" &&
      std::find(info->bot_levels.begin(), info->bot_levels.end(), level) !=
          info->bot_levels.end()) {
    ExpertSettings settings;
    settings.budget = budget;
    settings.rollout_cap = info->max_game_length;
    settings.resign_kinds = info->resign_kinds;
    return std::make_unique<ExpertBot>(std::move(settings), make_bot(ruleset, "heuristic"));
  }
  if (info && info->make_bot) {
    if (auto bot = info->make_bot(level)) return bot;
  }
  return std::make_unique<RandomBot>(info ? info->resign_kinds : std::vector<uint8_t>{});
}

std::unique_ptr<State> replay(const Registry& registry, const MatchConfig& config,
                              const std::vector<Step>& steps, std::string& error) {
  std::map<std::string, std::string> raw = config.params.values();
  CreateResult created =
      registry.create(config.ruleset, config.seats, config.seed, raw, config.seat_options);
  if (!created.state) {
    error = created.error;
    return nullptr;
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    ApplyResult result = created.state->apply(steps[i].seat, steps[i].action);
    if (!result.ok()) {
      error = "step " + std::to_string(i) + " refused: " + result.reason;
      return nullptr;
    }
  }
  return std::move(created.state);
}

}  // namespace duelhall::engine
