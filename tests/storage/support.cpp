#include "support.hpp"

#include <unistd.h>
#include <atomic>

#include "core/version.hpp"

namespace duelhall::testing {

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("duelhall-storage-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::unique_ptr<engine::State> play_toy_match(const engine::Registry& registry, uint64_t seed,
                                              size_t max_steps) {
  auto created = registry.create("toy_race", 2, engine::seed_from_number(seed), {});
  auto state = std::move(created.state);
  engine::Rng chooser(engine::seed_from_number(seed + 7777));
  while (!state->terminal() && state->history().size() < max_steps) {
    const engine::Seat seat = state->pending().first();
    auto legal = state->legal_actions(seat);
    state->apply(seat, legal[chooser.below(static_cast<uint32_t>(legal.size()))]);
  }
  return state;
}

storage::NewMatch new_match_for(const engine::State& state, uint64_t n, int64_t created_ms) {
  storage::NewMatch match;
  match.config = state.config();
  match.names = {"ann-" + std::to_string(n), "ben-" + std::to_string(n)};
  match.reconnect_tokens = {"token-" + std::to_string(n) + "-0",
                            "token-" + std::to_string(n) + "-1"};
  match.engine_version = std::string(engine::kEngineVersion);
  match.created_ms = created_ms;
  return match;
}

storage::MatchId store_match(storage::MatchStore& store, const engine::State& state, uint64_t n,
                             int64_t created_ms) {
  const storage::MatchId id = store.create_match(new_match_for(state, n, created_ms));
  const auto& history = state.history();
  for (size_t i = 0; i < history.size(); ++i) {
    store.append({id, static_cast<uint32_t>(i), history[i].seat, history[i].action,
                  created_ms + static_cast<int64_t>(i)});
  }
  return id;
}

}  // namespace duelhall::testing
