// Events: the per-viewer log of what happened ("Ann attacked Ben: 5 fatigue"). An event is
// public, or private to an audience of seats with an optional redacted text for everyone else
// ("Ben drew 7♥" for Ben, "Ben drew a card" for the others). The omniscient viewer sees the full
// text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace duelhall::engine {

struct Event {
  std::string text;
  SeatMask audience;     // empty: public
  std::string redacted;  // what viewers outside the audience see; empty: nothing

  static Event public_event(std::string text) { return {std::move(text), {}, {}}; }
  static Event private_event(SeatMask audience, std::string text, std::string redacted = {}) {
    return {std::move(text), audience, std::move(redacted)};
  }

  std::optional<std::string_view> text_for(const Viewer& viewer) const {
    if (audience.empty() || viewer.is_omniscient()) return text;
    if (viewer.kind == Viewer::Kind::kSeat && audience.has(viewer.seat)) return text;
    if (redacted.empty()) return std::nullopt;
    return redacted;
  }
};

}  // namespace duelhall::engine
