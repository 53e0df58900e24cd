// Helpers of the dispatcher's match tests (match_test.cpp, spectator_test.cpp): create a match,
// wait for it to start, play a seat to the end, look for an event.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "support/in_process.hpp"

namespace duelhall::testing {

inline uint64_t create(InProcessClient& host, duelhall::ClientMessage m) {
  auto reply = host.request(m);
  REQUIRE(reply.result() == duelhall::OK);
  return reply.created().match().match_id();
}

inline const client::TrackedMatch& wait_started(InProcessClient& c, uint64_t id) {
  REQUIRE(c.wait_until([&] { return c.tracker.find(id) != nullptr; }));
  return *c.tracker.find(id);
}

// Plays this client's seat to the end, always taking the first offered action.
inline void play_out(InProcessClient& c, uint64_t id) {
  for (int guard = 0; guard < 200; ++guard) {
    REQUIRE(c.wait_until([&] {
      auto* t = c.tracker.find(id);
      return t && (t->ended || !t->legal.empty());
    }));
    const auto* t = c.tracker.find(id);
    REQUIRE_FALSE(t->broken);
    if (t->ended) return;
    const uint64_t seq = t->seq;
    REQUIRE(c.request(action(id, t->legal.front().code(), seq)).result() == duelhall::OK);
    REQUIRE(c.wait_until([&] { return c.tracker.find(id)->seq > seq; }));
  }
  FAIL("the match did not end");
}

inline bool has_event_containing(const client::TrackedMatch& t, const std::string& text) {
  for (const auto& e : t.events) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace duelhall::testing
