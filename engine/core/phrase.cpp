#include "core/phrase.hpp"

#include <charconv>

namespace duelhall::engine {

const PhraseList* PhraseBook::list(std::string_view name) const {
  for (const auto& l : lists) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

namespace {

void append_number(int32_t v, std::string& out) {
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
  if (slot == "s") {
    if (!take(v) || v < 0) return false;
    out += '@';
    append_number(v, out);
    return true;
  }
  if (slot == "n") {
    if (!take(v)) return false;
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

}  // namespace

bool render(const PhraseBook& book, const Phrase& phrase, std::string& out) {
  if (phrase.id() == 0 || phrase.id() >= book.templates.size()) return false;
  const std::string_view text = book.templates[phrase.id()];
  const auto args = phrase.args();
  size_t next = 0;
  size_t at = 0;
  while (at < text.size()) {
    const size_t open = text.find('{', at);
    out.append(text.substr(at, open == std::string_view::npos ? open : open - at));
    if (open == std::string_view::npos) break;
    const size_t close = text.find('}', open);
    if (close == std::string_view::npos) return false;
    if (!render_slot(book, text.substr(open + 1, close - open - 1), args, next, out)) return false;
    at = close + 1;
  }
  return next == args.size();
}

std::string render(const PhraseBook& book, const Phrase& phrase) {
  std::string out;
  if (!render(book, phrase, out)) out.clear();
  return out;
}

}  // namespace duelhall::engine
