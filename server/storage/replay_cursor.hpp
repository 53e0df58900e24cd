// ReplayCursor: steps through a recorded match, forward and back, and shows it from any
// perspective: a seat, the spectator, and the omniscient view only once the match has ended, so
// a replay of a live match never shows anything hidden. The views are the engine's own
// `write_view` bytes, so a replay shows exactly what each live viewer was sent.
//
// Seeking back rebuilds from the nearest snapshot (a clone kept every `snapshot_every` steps,
// by default kSnapshotEvery) and replays forward, so any step is reached in a bounded number of
// applies.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace duelhall::storage {

class ReplayCursor {
 public:
  static constexpr size_t kSnapshotEvery = 32;

  // Null with the reason in `error` when the config cannot be created or a step is refused.
  // `ended` says whether the match has ended (it allows the omniscient view).
  static std::unique_ptr<ReplayCursor> open(const engine::Registry& registry,
                                            const engine::MatchConfig& config,
                                            std::vector<engine::Step> steps, bool ended,
                                            std::string& error,
                                            size_t snapshot_every = kSnapshotEvery);

  // Steps applied so far: 0 is the position before the first step.
  size_t position() const { return position_; }
  size_t length() const { return steps_.size(); }

  // Moves to `position` (clamped to the length); returns the position reached.
  size_t seek(size_t position);
  bool forward();
  bool back();

  // The view at the current position, or null for a viewer not allowed to see this replay
  // (the omniscient view of a live match, a seat outside the match).
  std::optional<std::string> view(const engine::Viewer& viewer) const;
  // The texts of the events of the last step applied, as `viewer` saw them.
  std::optional<std::vector<std::string>> events(const engine::Viewer& viewer) const;
  const engine::State& state() const { return *state_; }

 private:
  ReplayCursor() = default;
  bool allowed(const engine::Viewer& viewer) const;
  // Applies the next step, keeping its events when `keep_events`.
  void apply_next(bool keep_events);

  std::vector<engine::Step> steps_;
  bool ended_ = false;
  size_t snapshot_every_ = kSnapshotEvery;
  std::vector<std::unique_ptr<engine::State>> snapshots_;  // at 0, every, 2 * every, ...
  std::unique_ptr<engine::State> state_;
  size_t position_ = 0;
  std::vector<engine::Event> last_events_;
};

}  // namespace duelhall::storage
