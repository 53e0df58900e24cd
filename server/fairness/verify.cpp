#include "fairness/verify.hpp"

#include "fairness/commitment.hpp"
#include "fairness/record_format.hpp"
#include "fairness/server_ending.hpp"

namespace duelhall::fairness {
namespace {

VerifyResult failed(VerifyFailure failure, std::string reason, size_t index = 0) {
  return {failure, index, std::move(reason), {}};
}

std::string describe(const engine::ChanceRecord& chance) {
  std::string out = "'" + chance.what + "' after step " + std::to_string(chance.after_step) + " [";
  for (size_t i = 0; i < chance.values.size(); ++i) {
    if (i) out += ",";
    out += std::to_string(chance.values[i]);
  }
  return out + "]";
}

// A match the rules had not ended must have been ended by the server (a resignation, a clock
// forfeit, an abort: fairness/server_ending.hpp), and its result must be that ending's: every
// other seat wins against the seat it names, or nobody wins. What the server decided cannot be
// replayed (a clock is not in the record), so the result says which ending it took on trust.
VerifyResult check_server_ending(const MatchRecord& record) {
  const RecordedOutcome& outcome = *record.outcome;
  const auto ending = parse_server_ending(outcome.reason);
  if (!ending) {
    return failed(VerifyFailure::kOutcomeDiffers,
                  "the record says the match ended ('" + outcome.reason + "'), but after its " +
                      std::to_string(record.steps.size()) + " steps it goes on");
  }
  const int seats = record.config.seats;
  uint32_t others = 0;
  if (ending->losing_seat >= 0) {
    if (ending->losing_seat >= seats) {
      return failed(VerifyFailure::kOutcomeDiffers,
                    "the ending '" + outcome.reason + "' names a seat the match does not have");
    }
    others = ((1u << seats) - 1) & ~(1u << ending->losing_seat);
  }
  if (outcome.winners != others || !outcome.scores.empty()) {
    return failed(VerifyFailure::kOutcomeDiffers,
                  "the recorded winners are not those of the ending '" + outcome.reason + "'");
  }
  VerifyResult result;
  result.server_ending = outcome.reason;
  return result;
}

// Steps are replayed one at a time (not through engine::replay) so that a refusal names its step
// and a chance record that differs is caught at the step that drew it.
VerifyResult replay_and_compare(const engine::Registry& registry, const MatchRecord& record) {
  auto created = registry.create(record.config.ruleset, record.config.seats, record.config.seed,
                                 record.config.params.values(), record.config.seat_options);
  if (!created.state) return failed(VerifyFailure::kBadConfig, created.error);
  engine::State& state = *created.state;
  const auto& recorded = record.chance_log;
  size_t compared = 0;
  auto compare_new_chances = [&]() -> VerifyResult {
    const auto& drawn = state.chance_log();
    for (; compared < drawn.size(); ++compared) {
      if (compared >= recorded.size()) {
        return failed(VerifyFailure::kChanceCountDiffers,
                      "the replay draws chance record " + std::to_string(compared) + " " +
                          describe(drawn[compared]) + ", which the record lacks",
                      compared);
      }
      if (!(drawn[compared] == recorded[compared])) {
        return failed(VerifyFailure::kChanceDiffers,
                      "chance record " + std::to_string(compared) + " differs: recorded " +
                          describe(recorded[compared]) + ", the seed draws " +
                          describe(drawn[compared]),
                      compared);
      }
    }
    return {};
  };
  if (auto r = compare_new_chances(); !r.ok()) return r;
  for (size_t i = 0; i < record.steps.size(); ++i) {
    const engine::Step& step = record.steps[i];
    engine::ApplyResult applied = state.apply(step.seat, step.action);
    if (!applied.ok()) {
      return failed(VerifyFailure::kStepRefused,
                    "step " + std::to_string(i) + " (seat " + std::to_string(step.seat) +
                        ", action " + std::to_string(step.action.code()) +
                        ") is refused: " + applied.reason,
                    i);
    }
    if (auto r = compare_new_chances(); !r.ok()) return r;
  }
  if (compared < recorded.size()) {
    return failed(VerifyFailure::kChanceCountDiffers,
                  "the record has " + std::to_string(recorded.size()) +
                      " chance records, the replay draws " + std::to_string(compared),
                  compared);
  }
  if (record.outcome) {
    if (!state.terminal()) return check_server_ending(record);
    RecordedOutcome replayed = record_outcome(state.outcome());
    if (!(replayed == *record.outcome)) {
      return failed(VerifyFailure::kOutcomeDiffers,
                    "the recorded outcome '" + record.outcome->reason + "' is not the replay's '" +
                        replayed.reason + "'");
    }
  }
  return {};
}

}  // namespace

const char* to_string(VerifyFailure failure) {
  switch (failure) {
    case VerifyFailure::kNone:
      return "verified";
    case VerifyFailure::kUnreadable:
      return "unreadable record";
    case VerifyFailure::kSeedNotRevealed:
      return "seed not revealed";
    case VerifyFailure::kCommitmentMismatch:
      return "commitment mismatch";
    case VerifyFailure::kEngineMismatch:
      return "engine version mismatch";
    case VerifyFailure::kBadConfig:
      return "bad match config";
    case VerifyFailure::kStepRefused:
      return "step refused";
    case VerifyFailure::kChanceDiffers:
      return "chance record differs";
    case VerifyFailure::kChanceCountDiffers:
      return "chance record count differs";
    case VerifyFailure::kOutcomeDiffers:
      return "outcome differs";
  }
  return "unknown";
}

VerifyResult verify_record(const engine::Registry& registry, const MatchRecord& record,
                           std::string_view engine_version) {
  if (!record.seed_revealed) {
    return failed(VerifyFailure::kSeedNotRevealed,
                  "the record does not reveal its seed (the match has not ended)");
  }
  const std::string expected = seed_commitment(record.config.seed, record.engine_version);
  if (expected != record.commitment) {
    return failed(VerifyFailure::kCommitmentMismatch,
                  "the published commitment is " + record.commitment +
                      " but the revealed seed and engine version hash to " + expected);
  }
  if (record.engine_version != engine_version) {
    return failed(VerifyFailure::kEngineMismatch, "the match was played on " +
                                                      record.engine_version + "; this is " +
                                                      std::string(engine_version));
  }
  return replay_and_compare(registry, record);
}

VerifyResult verify_export(const engine::Registry& registry, std::string_view text,
                           std::string_view engine_version) {
  std::string error;
  auto record = read_record(text, error);
  if (!record) return failed(VerifyFailure::kUnreadable, error);
  return verify_record(registry, *record, engine_version);
}

}  // namespace duelhall::fairness
