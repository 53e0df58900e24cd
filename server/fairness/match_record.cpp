#include "fairness/match_record.hpp"

#include "fairness/commitment.hpp"

namespace duelhall::fairness {

RecordedOutcome record_outcome(const engine::Outcome& outcome) {
  return {outcome.winners.bits(), outcome.scores, outcome.reason};
}

engine::Params params_as_written(const std::map<std::string, std::string>& values) {
  // Params can only be built by resolving; a one-choice spec per value keeps each as it is.
  std::vector<engine::ParamSpec> specs;
  for (const auto& [name, value] : values)
    specs.push_back(engine::ParamSpec::choice(name, "", {value}));
  engine::Params params;
  std::string unused_error;
  engine::Params::resolve(specs, values, params, unused_error);
  return params;
}

MatchRecord make_record(const engine::State& state, std::vector<std::string> names,
                        std::string_view engine_version) {
  return make_record(state, std::move(names), engine_version, state.terminal());
}

MatchRecord make_record(const engine::State& state, std::vector<std::string> names,
                        std::string_view engine_version, bool reveal_seed) {
  MatchRecord record;
  record.engine_version = std::string(engine_version);
  record.config = state.config();
  record.commitment = seed_commitment(state.config().seed, engine_version);
  record.seed_revealed = reveal_seed;
  if (!reveal_seed) record.config.seed = {};
  names.resize(static_cast<size_t>(state.num_seats()));
  record.names = std::move(names);
  if (state.terminal()) record.outcome = record_outcome(state.outcome());
  record.steps = state.history();
  // The chance log tells the seed's draws; without the seed it would reveal hidden cards.
  if (reveal_seed) record.chance_log = state.chance_log();
  return record;
}

}  // namespace duelhall::fairness
