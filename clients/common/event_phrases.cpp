#include "event_phrases.hpp"

#include <string_view>

#include "core/phrase_stream.hpp"

namespace duelhall::client {

namespace {

// The listed book read in place by the engine's renderer: its strings stay in `listed`.
class BookView {
 public:
  explicit BookView(const PhraseBook& listed) {
    templates_.assign(listed.templates().begin(), listed.templates().end());
    entries_.reserve(static_cast<size_t>(listed.lists_size()));
    for (const PhraseList& list : listed.lists()) {
      entries_.emplace_back(list.entries().begin(), list.entries().end());
      lists_.push_back({list.name(), entries_.back()});
    }
  }
  engine::PhraseBook book() const { return {templates_, lists_}; }

 private:
  std::vector<std::string_view> templates_;
  std::vector<std::vector<std::string_view>> entries_;  // reserved: lists_ points into it
  std::vector<engine::PhraseList> lists_;
};

}  // namespace

bool render_phrases(const PhraseBook& book, std::span<const int32_t> phrases,
                    std::vector<std::string>& out) {
  const BookView view(book);
  const engine::PhraseBook engine_book = view.book();
  size_t next = 0;
  while (next < phrases.size()) {
    std::string text;
    if (!engine::render_next(engine_book, phrases, next, text)) {
      out.emplace_back("?");
      return false;
    }
    out.push_back(std::move(text));
  }
  return true;
}

bool render_label(const PhraseBook& book, uint64_t code, std::string& out) {
  const uint64_t kind = code & 0xff;
  if (kind >= static_cast<uint64_t>(book.labels_size())) return false;
  const LabelForm& form = book.labels(static_cast<int>(kind));
  if (form.phrase() == 0) return false;
  // One phrase in the events' stream shape: the template, then the argument bytes it names.
  std::vector<int32_t> phrase{static_cast<int32_t>(form.phrase())};
  for (const char index : form.args()) {
    if (index < 0 || index > 6) return false;
    phrase.push_back(static_cast<int32_t>((code >> (8 * (index + 1))) & 0xff));
  }
  const BookView view(book);
  size_t next = 0;
  return engine::render_next(view.book(), phrase, next, out) && next == phrase.size();
}

}  // namespace duelhall::client
