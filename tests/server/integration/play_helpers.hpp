// Playing seat 0 of a match with random legal actions, recording what the server acknowledged:
// shared by the tests that stop a server under play and check nothing acknowledged was lost.
#pragma once

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "core/bot.hpp"
#include "core/registry.hpp"
#include "helpers.hpp"

namespace duelhall::testing {

struct Played {
  uint64_t match = 0;
  std::string ruleset;
  std::string token;
  // (seq the action was chosen at, action code) of every action the server answered OK.
  std::vector<std::pair<uint64_t, uint64_t>> acknowledged;
  std::atomic<int> acks{0};
  std::atomic<bool> done{false};
};

// Plays random legal actions for seat 0 until the match ends or the connection ends.
inline void play_seat0(WsClient& client, const engine::RulesetInfo& info, Played& played,
                       uint64_t seed) {
  engine::Rng rng(engine::seed_from_number(seed));
  try {
    while (true) {
      if (!client.wait_until(
              [&] {
                auto* t = client.tracker().find(played.match);
                return t && (t->ended || !t->legal.empty());
              },
              std::chrono::seconds(20))) {
        break;
      }
      auto* t = client.tracker().find(played.match);
      if (t->ended) break;
      std::vector<engine::Action> legal;
      for (const auto& a : t->legal) legal.push_back(engine::Action::from_code(a.code()));
      engine::drop_avoided(legal, info.resign_kinds);
      const uint64_t code = legal[rng.below(static_cast<uint32_t>(legal.size()))].code();
      const uint64_t seq = t->seq;
      auto reply = client.request(action(played.match, code, seq));
      if (reply.result() == OK) {
        played.acknowledged.emplace_back(seq, code);
        ++played.acks;
      }
    }
  } catch (const std::exception&) {
    // The server closed the connection: what the client has is what it was told.
  }
  played.done = true;
}

}  // namespace duelhall::testing
