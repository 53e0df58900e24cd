// `verify`: the check anyone can run on an exported match (the `duelhall-verify` tool).
//
// Procedure (docs/storage.md): the record must reveal its seed; SHA-256 of the commitment
// preimage (commitment.hpp) of that seed and the record's engine version must equal the
// published commitment; the record's engine version must be this engine's; the match is rebuilt
// from its config with the revealed seed and every step is applied in order, each of which must
// be accepted; the chance records the replay draws must equal the recorded ones, one by one; and
// the recorded outcome, if any, must be the replay's, or, where the replay has not ended, that of
// an ending the server decides (fairness/server_ending.hpp: a resignation, a forfeit, an abort).
#pragma once

#include <string>
#include <string_view>

#include "core/registry.hpp"
#include "fairness/match_record.hpp"

namespace duelhall::fairness {

enum class VerifyFailure {
  kNone,
  kUnreadable,          // not a well-formed record (truncated, malformed, unknown format)
  kSeedNotRevealed,     // the match is live or its seed was withheld
  kCommitmentMismatch,  // the revealed seed is not the one committed to
  kEngineMismatch,      // recorded by another engine version: this one cannot judge it
  kBadConfig,           // unknown ruleset, bad parameters or seats
  kStepRefused,         // step `index` is not legal when replayed
  kChanceDiffers,       // chance record `index` is not what the seed draws
  kChanceCountDiffers,  // the replay draws more or fewer chance records than recorded
  kOutcomeDiffers,      // the recorded result is not the replay's
};
const char* to_string(VerifyFailure failure);

struct VerifyResult {
  VerifyFailure failure = VerifyFailure::kNone;
  size_t index = 0;    // the step or chance record concerned
  std::string reason;  // one sentence, for people
  // When verified: the ending the server decided outside the rules (a resignation, a forfeit, an
  // abort), taken from the record; empty when the replay itself reached the recorded end.
  std::string server_ending;
  bool ok() const { return failure == VerifyFailure::kNone; }
};

VerifyResult verify_record(const engine::Registry& registry, const MatchRecord& record,
                           std::string_view engine_version);
// Reads an export file's text and verifies it.
VerifyResult verify_export(const engine::Registry& registry, std::string_view text,
                           std::string_view engine_version);

}  // namespace duelhall::fairness
