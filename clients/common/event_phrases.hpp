// Protocol 5's events (docs/protocol.md, "Events as phrases"): a seat's events may come as
// phrases of the ruleset's book (RulesetInfo.phrases, from RulesetList), each its template's
// index then the arguments of the template's slots, in order. Rendered with the book they are
// exactly the texts older protocols send in `events`.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lobby.pb.h"

namespace duelhall::client {

// Appends the text of each event in `phrases` to `out`. Slots: {s} a seat, written "@N"; {n} a
// number; {LIST} an entry of the book's list LIST; {LIST*} a count, then that many entries
// joined by ", ". False when the phrases do not fit the book (an unknown template, a missing
// argument, an entry out of range): the events rendered before stay, and one "?" stands for the
// rest, whose boundaries cannot be known without the book.
bool render_phrases(const PhraseBook& book, std::span<const int32_t> phrases,
                    std::vector<std::string>& out);

// Protocol 7: appends the label of the action `code` as the book's form for its kind says it (the
// kind is the code's low byte, argument i its byte i + 1). False when the book has no form for the
// kind or the code's arguments do not fit it.
bool render_label(const PhraseBook& book, uint64_t code, std::string& out);

}  // namespace duelhall::client
