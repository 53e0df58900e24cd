#include "storage/replay_cursor.hpp"

#include <algorithm>

namespace duelhall::storage {

std::unique_ptr<ReplayCursor> ReplayCursor::open(const engine::Registry& registry,
                                                 const engine::MatchConfig& config,
                                                 std::vector<engine::Step> steps, bool ended,
                                                 std::string& error, size_t snapshot_every) {
  auto created = registry.create(config.ruleset, config.seats, config.seed, config.params.values(),
                                 config.seat_options);
  if (!created.state) {
    error = created.error;
    return nullptr;
  }
  std::unique_ptr<ReplayCursor> cursor(new ReplayCursor());
  cursor->steps_ = std::move(steps);
  cursor->ended_ = ended;
  cursor->snapshot_every_ = std::max<size_t>(snapshot_every, 1);
  cursor->state_ = std::move(created.state);
  // One pass validates every step and takes the snapshots.
  cursor->snapshots_.push_back(cursor->state_->clone());
  for (size_t i = 0; i < cursor->steps_.size(); ++i) {
    const engine::Step& step = cursor->steps_[i];
    engine::ApplyResult result = cursor->state_->apply(step.seat, step.action);
    if (!result.ok()) {
      error = "step " + std::to_string(i) + " refused: " + result.reason;
      return nullptr;
    }
    if ((i + 1) % cursor->snapshot_every_ == 0)
      cursor->snapshots_.push_back(cursor->state_->clone());
  }
  cursor->state_ = cursor->snapshots_.front()->clone();
  return cursor;
}

void ReplayCursor::apply_next(bool keep_events) {
  const engine::Step& step = steps_[position_];
  last_events_.clear();
  // Every step was accepted when the cursor was opened, and the engine is deterministic.
  state_->apply(step.seat, step.action, keep_events ? &last_events_ : nullptr);
  ++position_;
}

size_t ReplayCursor::seek(size_t position) {
  position = std::min(position, steps_.size());
  if (position == position_) return position_;
  if (position < position_ || position - position_ > snapshot_every_) {
    const size_t snapshot = position / snapshot_every_;
    state_ = snapshots_[snapshot]->clone();
    position_ = snapshot * snapshot_every_;
    last_events_.clear();
  }
  while (position_ < position) apply_next(position_ + 1 == position);
  return position_;
}

bool ReplayCursor::forward() {
  if (position_ >= steps_.size()) return false;
  apply_next(true);
  return true;
}

bool ReplayCursor::back() {
  if (position_ == 0) return false;
  seek(position_ - 1);
  return true;
}

bool ReplayCursor::allowed(const engine::Viewer& viewer) const {
  switch (viewer.kind) {
    case engine::Viewer::Kind::kOmniscient:
      return ended_;
    case engine::Viewer::Kind::kSpectator:
      return true;
    case engine::Viewer::Kind::kSeat:
      return viewer.seat >= 0 && viewer.seat < state_->num_seats();
  }
  return false;
}

std::optional<std::string> ReplayCursor::view(const engine::Viewer& viewer) const {
  if (!allowed(viewer)) return std::nullopt;
  return state_->view(viewer);
}

std::optional<std::vector<std::string>> ReplayCursor::events(const engine::Viewer& viewer) const {
  if (!allowed(viewer)) return std::nullopt;
  std::vector<std::string> texts;
  for (const engine::Event& event : last_events_) {
    if (auto text = event.text_for(viewer)) texts.emplace_back(*text);
  }
  return texts;
}

}  // namespace duelhall::storage
