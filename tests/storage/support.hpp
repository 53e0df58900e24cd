// Shared helpers of the storage tests: scratch folders, and toy matches played to an end.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "core/registry.hpp"
#include "storage/match_store.hpp"

namespace duelhall::testing {

// A fresh folder under the system temp folder, removed with the object.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A toy match from a numbered seed, played by random legal moves for at most `max_steps` steps
// (or to its end).
std::unique_ptr<engine::State> play_toy_match(const engine::Registry& registry, uint64_t seed,
                                              size_t max_steps = 1000);

// The store's NewMatch for a toy state: names "ann-<n>" and "ben-<n>", tokens "token-<n>-<seat>".
storage::NewMatch new_match_for(const engine::State& state, uint64_t n, int64_t created_ms = 1000);

// Creates the match in the store and appends its whole history; returns its id.
storage::MatchId store_match(storage::MatchStore& store, const engine::State& state, uint64_t n,
                             int64_t created_ms = 1000);

}  // namespace duelhall::testing
