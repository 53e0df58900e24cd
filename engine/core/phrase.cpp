#include "core/phrase.hpp"

#include <charconv>
#include <cstring>

#include "core/action.hpp"
#include "core/phrase_stream.hpp"

namespace duelhall::engine {

const PhraseList* PhraseBook::list(std::string_view name) const {
  for (const auto& l : lists) {
    // Size and first letter before the full compare (a call): most names differ there already.
    if (l.name.size() == name.size() && (name.empty() || l.name[0] == name[0]) && l.name == name) {
      return &l;
    }
  }
  return nullptr;
}

namespace {

// What an argument adds to its template's text, about: a seat or a number replaces its slot by
// a few characters, an entry by a word or a card's title.
constexpr size_t kRenderedArgSize = 12;

void append_number(int32_t v, std::string& out) {
  if (v >= 0 && v < 10) {  // most arguments: seats, dice, counts
    out += static_cast<char>('0' + v);
    return;
  }
  char buf[16];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, end);
}

// Renders one slot's text from the arguments at `next`, advancing it.
bool render_slot(const PhraseBook& book, std::string_view slot, std::span<const int32_t> args,
                 size_t& next, std::string& out) {
  auto take = [&](int32_t& v) {
    if (next == args.size()) return false;
    v = args[next++];
    return true;
  };
  int32_t v = 0;
  if (slot.size() == 1 && (slot[0] == 's' || slot[0] == 'n')) {
    if (!take(v)) return false;
    if (slot[0] == 's') {
      if (v < 0) return false;
      out += '@';
    }
    append_number(v, out);
    return true;
  }
  const bool many = !slot.empty() && slot.back() == '*';
  const PhraseList* list = book.list(many ? slot.substr(0, slot.size() - 1) : slot);
  if (!list) return false;
  int32_t count = 1;
  if (many && (!take(count) || count < 0)) return false;
  for (int32_t i = 0; i < count; ++i) {
    if (!take(v) || v < 0 || static_cast<size_t>(v) >= list->entries.size()) return false;
    if (i > 0) out += ", ";
    out += list->entries[static_cast<size_t>(v)];
  }
  return true;
}

// Appends template `id`'s text, its slots filled from `args` at `next` onwards (advanced past
// them).
bool render_template(const PhraseBook& book, size_t id, std::span<const int32_t> args, size_t& next,
                     std::string& out) {
  if (id == 0 || id >= book.templates.size()) return false;
  const std::string_view text = book.templates[id];
  // The literal stretches found with memchr; a slot's name, a word, is scanned by hand.
  const char* at = text.data();
  const char* const end = at + text.size();
  while (at != end) {
    const char* open =
        static_cast<const char*>(std::memchr(at, '{', static_cast<size_t>(end - at)));
    if (!open) open = end;
    out.append(at, static_cast<size_t>(open - at));
    if (open == end) break;
    const char* close = open + 1;
    while (close != end && *close != '}') ++close;
    if (close == end) return false;
    const std::string_view slot(open + 1, static_cast<size_t>(close - open - 1));
    if (!render_slot(book, slot, args, next, out)) return false;
    at = close + 1;
  }
  return true;
}

}  // namespace

bool render(const PhraseBook& book, const Phrase& phrase, std::string& out) {
  const auto args = phrase.args();
  size_t next = 0;
  return render_template(book, phrase.id(), args, next, out) && next == args.size();
}

bool render_next(const PhraseBook& book, std::span<const int32_t> stream, size_t& next,
                 std::string& out) {
  if (next == stream.size() || stream[next] <= 0) return false;
  const auto id = static_cast<size_t>(stream[next++]);
  return render_template(book, id, stream, next, out);
}

std::string render(const PhraseBook& book, const Phrase& phrase) {
  std::string out;
  // Events are rendered on every apply: the text is allocated once, as far as the estimate
  // holds, instead of growing on the way.
  if (phrase.id() < book.templates.size()) {
    out.reserve(book.templates[phrase.id()].size() + kRenderedArgSize * phrase.args().size());
  }
  if (!render(book, phrase, out)) out.clear();
  return out;
}

Phrase label_phrase(const PhraseBook& book, const Action& action) {
  const LabelForm* form = book.label_form(action.kind);
  if (!form) return {};
  Phrase phrase(form->phrase);
  for (const char digit : form->args) {
    const int index = digit - '0';
    if (index < 0 || index >= static_cast<int>(action.args.size())) return {};
    phrase.number(action.arg(index));
  }
  return phrase;
}

}  // namespace duelhall::engine
