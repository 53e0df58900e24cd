// The leak test for events: what a viewer reads in the log must not depend on what it cannot see.
#include "table.hpp"

using namespace jedi_test;

TEST_CASE("Event texts do not depend on what their viewer cannot see") {
  Registry registry = builtin_registry();
  Rng rng(seed_from_number(11));
  long long compared = 0;
  for (int game = 0; game < 150; ++game) {
    const int seats = 2 + game % 5;
    auto state = registry.create("jedi_duel", seats, seed_from_number(300 + game), {}).state;
    while (!state->terminal()) {
      const Seat actor = state->pending().first();
      const auto legal = state->legal_actions(actor);
      const Action action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      for (Seat seat = -1; seat < seats; ++seat) {
        const Viewer viewer = seat < 0 ? Viewer::spectator() : Viewer::of_seat(seat);
        auto redrawn = state->clone();
        redrawn->resample_hidden(viewer, rng);
        const auto redrawn_legal = redrawn->legal_actions(actor);
        // An action that names a hidden card may not exist in the redrawn world.
        if (!std::binary_search(redrawn_legal.begin(), redrawn_legal.end(), action)) continue;
        auto real = state->clone();
        std::vector<Event> real_events, redrawn_events;
        REQUIRE(real->apply(actor, action, &real_events).ok());
        REQUIRE(redrawn->apply(actor, action, &redrawn_events).ok());
        REQUIRE(real_events.size() == redrawn_events.size());
        for (size_t i = 0; i < real_events.size(); ++i) {
          REQUIRE(real_events[i].audience == redrawn_events[i].audience);
          // Private news for this viewer (its own draw) may differ; everything else may not.
          if (seat >= 0 && real_events[i].audience.has(seat)) continue;
          CHECK(real_events[i].text_for(viewer) == redrawn_events[i].text_for(viewer));
          ++compared;
        }
      }
      REQUIRE(state->apply(actor, action).ok());
    }
  }
  CHECK(compared > 10000);
}
