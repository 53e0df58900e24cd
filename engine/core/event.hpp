// Events: the per-viewer log of what happened ("Ann attacked Ben: 5 fatigue"). An event is
// public, or private to an audience of seats with an optional redacted text for everyone else
// ("Ben drew 7♥" for Ben, "Ben drew a card" for the others). The omniscient viewer sees the full
// text. A ruleset with a phrase book says its events as phrases (core/phrase.hpp): the texts are
// rendered from them, and protocol 5 sends the phrase instead of the text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/phrase.hpp"
#include "core/types.hpp"

namespace duelhall::engine {

struct Event {
  std::string text;
  SeatMask audience;       // empty: public
  std::string redacted;    // what viewers outside the audience see; empty: nothing
  Phrase phrase;           // what `text` was rendered from; none when said as text
  Phrase redacted_phrase;  // what `redacted` was rendered from

  static Event said(const PhraseBook& book, const Phrase& phrase) {
    return {render(book, phrase), {}, {}, phrase, {}};
  }
  // Private to `audience`; the others see `redacted` (none: nothing).
  static Event said_to(const PhraseBook& book, SeatMask audience, const Phrase& phrase,
                       const Phrase& redacted = {}) {
    return {render(book, phrase), audience, redacted ? render(book, redacted) : std::string(),
            phrase, redacted};
  }

  static Event public_event(std::string text) { return {std::move(text), {}, {}, {}, {}}; }
  static Event private_event(SeatMask audience, std::string text, std::string redacted = {}) {
    return {std::move(text), audience, std::move(redacted), {}, {}};
  }

  std::optional<std::string_view> text_for(const Viewer& viewer) const {
    if (audience.empty() || viewer.is_omniscient()) return text;
    if (viewer.kind == Viewer::Kind::kSeat && audience.has(viewer.seat)) return text;
    if (redacted.empty()) return std::nullopt;
    return redacted;
  }
  // The phrase of what `text_for` gives; null when the viewer sees nothing. A phrase whose id is
  // 0 means the text was not said as a phrase.
  const Phrase* phrase_for(const Viewer& viewer) const {
    if (audience.empty() || viewer.is_omniscient()) return &phrase;
    if (viewer.kind == Viewer::Kind::kSeat && audience.has(viewer.seat)) return &phrase;
    if (redacted.empty()) return nullptr;
    return &redacted_phrase;
  }
};

}  // namespace duelhall::engine
