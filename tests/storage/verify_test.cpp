#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/version.hpp"
#include "fairness/commitment.hpp"
#include "fairness/record_format.hpp"
#include "fairness/server_ending.hpp"
#include "fairness/verify.hpp"
#include "fairness/verify_command.hpp"
#include "storage/match_export.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using fairness::VerifyFailure;

namespace {

struct Honest {
  engine::Registry registry = testing::toy_registry();
  std::unique_ptr<engine::State> state;
  fairness::MatchRecord record;

  explicit Honest(uint64_t seed = 31) : state(testing::play_toy_match(registry, seed)) {
    REQUIRE(state->terminal());
    record = fairness::make_record(*state, {"Ann", "Ben"}, engine::kEngineVersion);
  }
  fairness::VerifyResult verify(const fairness::MatchRecord& r) const {
    return fairness::verify_record(registry, r, engine::kEngineVersion);
  }
  fairness::VerifyResult verify_text(const std::string& text) const {
    return fairness::verify_export(registry, text, engine::kEngineVersion);
  }
};

}  // namespace

TEST_CASE("verify accepts honest records of finished matches") {
  const auto registry = testing::toy_registry();
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    auto state = testing::play_toy_match(registry, seed);
    const std::string text =
        fairness::write_record(fairness::make_record(*state, {"a", "b"}, engine::kEngineVersion));
    auto result = fairness::verify_export(registry, text, engine::kEngineVersion);
    INFO("seed " << seed << ": " << result.reason);
    CHECK(result.ok());
  }
}

TEST_CASE("verify rejects a record whose seed is not the committed one") {
  Honest h;
  auto tampered = h.record;
  tampered.config.seed[5] ^= 1;
  auto result = h.verify(tampered);
  CHECK(result.failure == VerifyFailure::kCommitmentMismatch);
  CHECK_THAT(result.reason, Catch::Contains("published commitment is " + h.record.commitment));
}

TEST_CASE("verify rejects a wrong commitment") {
  Honest h;
  auto tampered = h.record;
  tampered.commitment =
      fairness::seed_commitment(engine::seed_from_number(1), tampered.engine_version);
  CHECK(h.verify(tampered).failure == VerifyFailure::kCommitmentMismatch);
}

TEST_CASE("verify rejects a record of another engine version, even with a matching commitment") {
  Honest h;
  auto other = h.record;
  other.engine_version = "duelhall-engine/9.9.9";
  CHECK(h.verify(other).failure == VerifyFailure::kCommitmentMismatch);
  other.commitment = fairness::seed_commitment(other.config.seed, other.engine_version);
  auto result = h.verify(other);
  CHECK(result.failure == VerifyFailure::kEngineMismatch);
  CHECK_THAT(result.reason, Catch::Contains("played on duelhall-engine/9.9.9"));
}

TEST_CASE("verify rejects a changed step that the rules refuse, naming the step") {
  Honest h;
  auto tampered = h.record;
  tampered.steps[4].action = engine::Action::make(2, 7);  // no hand holds eight cards
  auto result = h.verify(tampered);
  CHECK(result.failure == VerifyFailure::kStepRefused);
  CHECK(result.index == 4);
  CHECK_THAT(result.reason, Catch::StartsWith("step 4 "));
  tampered.steps[4] = {1 - h.record.steps[4].seat, h.record.steps[4].action};
  CHECK(h.verify(tampered).failure == VerifyFailure::kStepRefused);
}

TEST_CASE("verify rejects a changed step that is legal but not what was played") {
  Honest h;
  // Swap the first roll for a card play (or the reverse): the dice then fall elsewhere.
  auto tampered = h.record;
  size_t i = 0;
  while (tampered.steps[i].action.kind != 1) ++i;
  tampered.steps[i].action = engine::Action::make(2, 0);
  auto result = h.verify(tampered);
  INFO(result.reason);
  CHECK_FALSE(result.ok());
  CHECK((result.failure == VerifyFailure::kChanceDiffers ||
         result.failure == VerifyFailure::kChanceCountDiffers ||
         result.failure == VerifyFailure::kStepRefused ||
         result.failure == VerifyFailure::kOutcomeDiffers));
}

TEST_CASE("verify rejects a changed chance record, naming it") {
  Honest h;
  auto tampered = h.record;
  REQUIRE(tampered.chance_log.size() >= 2);
  auto& shuffle = tampered.chance_log[0];
  std::swap(shuffle.values[0], shuffle.values[1]);
  auto result = h.verify(tampered);
  CHECK(result.failure == VerifyFailure::kChanceDiffers);
  CHECK(result.index == 0);
  CHECK_THAT(result.reason, Catch::Contains("chance record 0 differs"));

  tampered = h.record;
  auto& die = tampered.chance_log[1];
  die.values[0] = static_cast<uint16_t>(die.values[0] % 6 + 1);
  result = h.verify(tampered);
  CHECK(result.failure == VerifyFailure::kChanceDiffers);
  CHECK(result.index == 1);

  tampered = h.record;
  tampered.chance_log.pop_back();
  CHECK(h.verify(tampered).failure == VerifyFailure::kChanceCountDiffers);
  tampered = h.record;
  tampered.chance_log.push_back(tampered.chance_log.back());
  CHECK(h.verify(tampered).failure == VerifyFailure::kChanceCountDiffers);
}

TEST_CASE("verify rejects a changed outcome and steps cut short of the end") {
  Honest h;
  auto tampered = h.record;
  tampered.outcome->winners ^= 3;
  CHECK(h.verify(tampered).failure == VerifyFailure::kOutcomeDiffers);
  tampered = h.record;
  tampered.steps.pop_back();
  while (!tampered.chance_log.empty() &&
         tampered.chance_log.back().after_step >= tampered.steps.size()) {
    tampered.chance_log.pop_back();
  }
  auto result = h.verify(tampered);
  CHECK(result.failure == VerifyFailure::kOutcomeDiffers);
  CHECK_THAT(result.reason, Catch::Contains("it goes on"));
}

namespace {

// The honest record cut after its first `steps` steps, as a match the server ended there.
fairness::MatchRecord ended_by_server(const Honest& h, size_t steps, std::string reason,
                                      uint32_t winners) {
  auto record = h.record;
  record.steps.resize(steps);
  while (!record.chance_log.empty() && record.chance_log.back().after_step >= steps) {
    record.chance_log.pop_back();
  }
  record.outcome = fairness::RecordedOutcome{winners, {}, std::move(reason)};
  return record;
}

}  // namespace

TEST_CASE("verify accepts a match the server ended short of the rules' end, naming the ending") {
  Honest h;
  const size_t steps = h.record.steps.size() / 2;
  for (auto [reason, winners] :
       std::vector<std::pair<std::string, uint32_t>>{{fairness::resigned(0), 2u},
                                                     {fairness::resigned(1), 1u},
                                                     {fairness::forfeited_on_time(1), 1u},
                                                     {fairness::left_rated_match(0), 2u},
                                                     {fairness::every_player_left(), 0u},
                                                     {fairness::aborted_by_moderator(""), 0u},
                                                     {fairness::aborted_by_moderator("abuse"), 0u},
                                                     {fairness::stopped_by_fault(), 0u},
                                                     {fairness::stopped_unstored(), 0u}}) {
    INFO(reason);
    const auto result = h.verify(ended_by_server(h, steps, reason, winners));
    INFO(result.reason);
    CHECK(result.ok());
    CHECK(result.server_ending == reason);
  }
  // A match the rules ended says nothing of the server.
  CHECK(h.verify(h.record).server_ending.empty());
}

TEST_CASE("verify rejects a server ending whose winners are not that ending's, or an unknown one") {
  Honest h;
  const size_t steps = h.record.steps.size() / 2;
  for (auto [reason, winners] : std::vector<std::pair<std::string, uint32_t>>{
           {fairness::resigned(1), 2u},          // the resigner cannot win
           {fairness::resigned(1), 3u},          // nor share the win
           {fairness::resigned(2), 3u},          // a seat the match does not have
           {fairness::every_player_left(), 1u},  // nobody wins
           {"@1 resigns and more", 1u},          // not the server's words
           {"@x resigns", 1u},
           {"@-1 resigns", 2u},
           {"a player was too good", 1u}}) {
    INFO(reason);
    const auto result = h.verify(ended_by_server(h, steps, reason, winners));
    CHECK(result.failure == VerifyFailure::kOutcomeDiffers);
  }
  // Scores belong to the rules' ends only.
  auto scored = ended_by_server(h, steps, fairness::resigned(1), 1u);
  scored.outcome->scores = {1, 0};
  CHECK(h.verify(scored).failure == VerifyFailure::kOutcomeDiffers);
}

TEST_CASE("verify rejects a record without its seed") {
  Honest h;
  auto live = h.record;
  live.seed_revealed = false;
  CHECK(h.verify(live).failure == VerifyFailure::kSeedNotRevealed);
}

TEST_CASE("verify rejects a truncated file at every cut") {
  Honest h;
  const std::string text = fairness::write_record(h.record);
  for (size_t cut = 0; cut < text.size(); cut += 7) {
    auto result = h.verify_text(text.substr(0, cut));
    CAPTURE(cut);
    CHECK(result.failure == VerifyFailure::kUnreadable);
    CHECK_THAT(result.reason, Catch::Contains("truncated file"));
  }
  CHECK(h.verify_text(text).ok());
}

TEST_CASE("the verify command prints the verdict and exits non-zero on failure") {
  Honest h;
  testing::ScratchDir dir;
  const std::string good = dir.file("good.duelhall");
  const std::string bad = dir.file("bad.duelhall");
  std::ofstream(good) << fairness::write_record(h.record);
  auto tampered = h.record;
  tampered.chance_log[0].values[0] ^= 1;
  std::ofstream(bad) << fairness::write_record(tampered);
  auto run = [&](std::vector<std::string_view> args, std::string& out) {
    std::ostringstream o, e;
    int code = fairness::run_verify_command(h.registry, args, o, e);
    out = o.str() + e.str();
    return code;
  };
  std::string out;
  CHECK(run({good}, out) == 0);
  CHECK_THAT(out, Catch::Contains(": verified"));
  CHECK(run({bad}, out) == 1);
  CHECK_THAT(out, Catch::Contains("NOT verified (chance record differs): chance record 0"));
  CHECK(run({dir.file("missing")}, out) == 2);
  CHECK(run({}, out) == 2);
}

TEST_CASE("a stored finished match exports a record that verifies and imports elsewhere") {
  testing::ScratchDir dir;
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 23);
  storage::SqliteMatchStore store(dir.file("a.db"));
  const auto id = testing::store_match(store, *state, 23);
  std::string error;
  auto live = storage::export_record(registry, *store.load_match(id), error);
  REQUIRE(live);
  CHECK_FALSE(live->seed_revealed);
  CHECK(fairness::verify_record(registry, *live, engine::kEngineVersion).failure ==
        VerifyFailure::kSeedNotRevealed);

  store.finish_match(id, state->outcome(), 100);
  auto record = storage::export_record(registry, *store.load_match(id), error);
  REQUIRE(record);
  CHECK(record->names == std::vector<std::string>{"ann-23", "ben-23"});
  CHECK(record->chance_log == state->chance_log());
  const std::string text = fairness::write_record(*record);
  CHECK(fairness::verify_export(registry, text, engine::kEngineVersion).ok());

  storage::SqliteMatchStore other(dir.file("b.db"));
  auto imported = fairness::read_record(text, error);
  REQUIRE(imported);
  const auto new_id = other.import_record(*imported, 500);
  auto again = storage::export_record(registry, *other.load_match(new_id), error);
  REQUIRE(again);
  CHECK(fairness::write_record(*again) == text);
  CHECK(other.list_ended({}).size() == 1);
}
