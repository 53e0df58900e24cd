// Phrases as protocol 5 sends them (MatchUpdate.phrases, docs/protocol.md "Events as phrases"):
// one stream of events, each its template's index then the arguments its template's slots take,
// with nothing between two events. A client reads them with the book the ruleset list gave it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "core/phrase.hpp"

namespace duelhall::engine {

// Appends the text of the phrase at stream[next] to `out` and moves `next` past its arguments.
// False when it does not fit the book (an unknown template, an argument missing or out of
// range); `next` is then unspecified, since where the next phrase starts cannot be known.
bool render_next(const PhraseBook& book, std::span<const int32_t> stream, size_t& next,
                 std::string& out);

}  // namespace duelhall::engine
