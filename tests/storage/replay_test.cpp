#include <catch2/catch.hpp>

#include "storage/replay_cursor.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using engine::Viewer;
using storage::ReplayCursor;

namespace {

const std::vector<Viewer> kViewers = {Viewer::of_seat(0), Viewer::of_seat(1), Viewer::spectator(),
                                      Viewer::omniscient()};

// What every viewer was sent during the live match, before the first step and after each one.
struct LiveRecording {
  std::vector<std::vector<std::string>> views;                // [position][viewer]
  std::vector<std::vector<std::vector<std::string>>> events;  // [position][viewer]
};

LiveRecording play_and_record(const engine::Registry& registry, uint64_t seed,
                              std::unique_ptr<engine::State>& state, size_t max_steps = 1000) {
  // The highest target makes the longest toy matches.
  state = registry.create("toy_race", 2, engine::seed_from_number(seed), {{"target", "60"}}).state;
  LiveRecording rec;
  engine::Rng chooser(engine::seed_from_number(seed * 3));
  auto snapshot = [&](const std::vector<engine::Event>& events) {
    rec.views.emplace_back();
    rec.events.emplace_back();
    for (const Viewer& v : kViewers) {
      rec.views.back().push_back(state->view(v));
      std::vector<std::string> texts;
      for (const auto& e : events) {
        if (auto t = e.text_for(v)) texts.emplace_back(*t);
      }
      rec.events.back().push_back(texts);
    }
  };
  snapshot({});
  while (!state->terminal() && state->history().size() < max_steps) {
    const engine::Seat seat = state->pending().first();
    auto legal = state->legal_actions(seat);
    std::vector<engine::Event> events;
    state->apply(seat, legal[chooser.below(static_cast<uint32_t>(legal.size()))], &events);
    snapshot(events);
  }
  return rec;
}

void check_position(const ReplayCursor& cursor, const LiveRecording& rec, bool ended) {
  const size_t at = cursor.position();
  for (size_t v = 0; v < kViewers.size(); ++v) {
    CAPTURE(at, engine::to_string(kViewers[v]));
    auto view = cursor.view(kViewers[v]);
    if (kViewers[v].is_omniscient() && !ended) {
      CHECK_FALSE(view);
      CHECK_FALSE(cursor.events(kViewers[v]));
      continue;
    }
    REQUIRE(view);
    CHECK(*view == rec.views[at][v]);
  }
}

}  // namespace

TEST_CASE("replays from each perspective match the views the live viewers received") {
  const auto registry = testing::toy_registry();
  testing::ScratchDir dir;
  storage::SqliteMatchStore store(dir.file("d.db"));
  size_t longest = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::unique_ptr<engine::State> live;
    const LiveRecording rec = play_and_record(registry, seed, live);
    REQUIRE(live->terminal());
    const auto id = testing::store_match(store, *live, seed);
    store.finish_match(id, live->outcome(), 10);
    auto stored = store.load_match(id);
    std::string error;
    // Snapshots every 4 steps, so that toy matches pass several.
    auto cursor = ReplayCursor::open(registry, stored->config, stored->steps, true, error, 4);
    REQUIRE(cursor);
    REQUIRE(cursor->length() + 1 == rec.views.size());
    longest = std::max(longest, cursor->length());
    check_position(*cursor, rec, true);
    while (cursor->forward()) {
      check_position(*cursor, rec, true);
      // The step's events as each viewer saw them live.
      for (size_t v = 0; v < kViewers.size(); ++v) {
        CHECK(*cursor->events(kViewers[v]) == rec.events[cursor->position()][v]);
      }
    }
    CHECK(cursor->position() == cursor->length());
    CHECK(cursor->state().serialize() == live->serialize());
    while (cursor->back()) check_position(*cursor, rec, true);
    CHECK(cursor->position() == 0);
    // Jumps in both directions, across snapshots.
    engine::Rng jumps(engine::seed_from_number(seed));
    for (int i = 0; i < 20; ++i) {
      cursor->seek(jumps.below(static_cast<uint32_t>(cursor->length() + 1)));
      check_position(*cursor, rec, true);
    }
  }
  CHECK(longest > 3 * 4);
}

TEST_CASE("a replay of a live match never shows the omniscient view") {
  const auto registry = testing::toy_registry();
  std::unique_ptr<engine::State> live;
  const LiveRecording rec = play_and_record(registry, 5, live, 6);
  REQUIRE_FALSE(live->terminal());
  std::string error;
  auto cursor = ReplayCursor::open(registry, live->config(), live->history(), false, error);
  REQUIRE(cursor);
  for (size_t at = 0; at <= cursor->length(); ++at) {
    cursor->seek(at);
    check_position(*cursor, rec, false);
  }
  CHECK_FALSE(cursor->view(Viewer::of_seat(2)));
}

TEST_CASE("a replay whose log the rules refuse does not open, and says which step") {
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 9);
  auto steps = state->history();
  steps[3].action = engine::Action::make(2, 9);
  std::string error;
  CHECK_FALSE(ReplayCursor::open(registry, state->config(), steps, true, error));
  CHECK_THAT(error, Catch::StartsWith("step 3 refused"));
}

TEST_CASE("seeking clamps to the end of the match") {
  const auto registry = testing::toy_registry();
  auto state = testing::play_toy_match(registry, 12);
  std::string error;
  auto cursor = ReplayCursor::open(registry, state->config(), state->history(), true, error);
  REQUIRE(cursor);
  CHECK(cursor->seek(100000) == state->history().size());
  CHECK_FALSE(cursor->forward());
  CHECK(cursor->state().serialize() == state->serialize());
}
