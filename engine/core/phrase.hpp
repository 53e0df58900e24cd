// Phrases: an event as a template of its ruleset's phrase book and a few small arguments, so that
// a client holding the book renders the text from a few bytes (protocol 5 sends the arguments,
// docs/protocol.md) instead of the words. An event's text is rendered from its phrase, so the two
// cannot disagree.
//
// A template is text with slots: "{s} attacks {s} {area} with {card}". Each slot takes the next
// argument(s):
//   {s}       a seat, written "@N" (clients show the seat's name)
//   {n}       a number, written in decimal
//   {LIST}    an entry of the book's list named LIST (a card's name, an area)
//   {LIST*}   a count, then that many entries of LIST, joined by ", "
// The book is constant data of the ruleset, listed once per ruleset to clients (RulesetInfo).
//
// A book may also say its ruleset's action labels (protocol 7): a label form per action kind names
// a template and which of the action's argument bytes fill its slots, in order, so that a client
// holding the book renders a legal action's label from its code and is never sent the text.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

namespace duelhall::engine {

struct PhraseList {
  std::string_view name;
  std::span<const std::string_view> entries;
};

// An action kind's label: template `phrase`, its slots filled by the action's argument bytes at
// the indices `args` lists, in order ("10": argument 1, then argument 0).
struct LabelForm {
  uint16_t phrase = 0;  // 0: the kind has no form, and its labels travel as text
  std::string_view args;
};

struct PhraseBook {
  std::span<const std::string_view> templates;  // index 0 is unused: phrase id 0 means none
  std::span<const PhraseList> lists;
  std::span<const LabelForm> labels = {};  // by action kind; empty: labels travel as text

  const PhraseList* list(std::string_view name) const;
  // The form of `kind`'s labels, or null when they travel as text.
  const LabelForm* label_form(uint8_t kind) const {
    return kind < labels.size() && labels[kind].phrase != 0 ? &labels[kind] : nullptr;
  }
};

class Phrase {
 public:
  static constexpr size_t kMaxArgs = 14;

  Phrase() = default;
  explicit Phrase(uint16_t id) : id_(id) {}

  Phrase& seat(int s) { return add(s); }
  Phrase& number(int n) { return add(n); }
  Phrase& entry(int index) { return add(index); }
  // A {LIST*} slot's arguments; a phrase with more arguments than fit has none (id 0) and
  // travels as text.
  template <typename Range, typename ToIndex>
  Phrase& entries(const Range& items, ToIndex to_index) {
    add(static_cast<int>(std::size(items)));
    for (const auto& item : items) add(to_index(item));
    return *this;
  }

  uint16_t id() const { return id_; }
  std::span<const int32_t> args() const { return {args_.data(), count_}; }
  explicit operator bool() const { return id_ != 0; }
  bool operator==(const Phrase& o) const {
    return id_ == o.id_ &&
           std::equal(args().begin(), args().end(), o.args().begin(), o.args().end());
  }

 private:
  Phrase& add(int v) {
    if (count_ == kMaxArgs) {
      id_ = 0;
      return *this;
    }
    args_[count_++] = v;
    return *this;
  }

  uint16_t id_ = 0;
  uint8_t count_ = 0;
  std::array<int32_t, kMaxArgs> args_{};
};

// Appends the phrase's text to `out`. False, with `out` unspecified, when the phrase does not fit
// the book (an unknown template, a missing or extra argument, an entry out of range).
bool render(const PhraseBook& book, const Phrase& phrase, std::string& out);
// The text, or "" when the phrase does not fit the book.
std::string render(const PhraseBook& book, const Phrase& phrase);

struct Action;
// The phrase of the action's label by its kind's form; id 0 when the kind has none.
Phrase label_phrase(const PhraseBook& book, const Action& action);

}  // namespace duelhall::engine
