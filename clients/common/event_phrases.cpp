#include "event_phrases.hpp"

#include <string_view>

#include "core/action.hpp"
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
    // The wire names a form's arguments by byte, the engine by digit: an index past 9 becomes a
    // character label_phrase refuses, and a template id past the engine's range no form.
    form_args_.reserve(static_cast<size_t>(listed.labels_size()));
    for (const LabelForm& form : listed.labels()) {
      std::string& digits = form_args_.emplace_back();
      for (const char index : form.args())
        digits += index >= 0 && index <= 9 ? static_cast<char>('0' + index) : 'x';
      const auto phrase = static_cast<uint16_t>(form.phrase() <= 0xffff ? form.phrase() : 0);
      labels_.push_back({phrase, digits});
    }
  }
  engine::PhraseBook book() const { return {templates_, lists_, labels_}; }

 private:
  std::vector<std::string_view> templates_;
  std::vector<std::vector<std::string_view>> entries_;  // reserved: lists_ points into it
  std::vector<engine::PhraseList> lists_;
  std::vector<std::string> form_args_;  // reserved: labels_ points into it
  std::vector<engine::LabelForm> labels_;
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
  const BookView view(book);
  const engine::PhraseBook engine_book = view.book();
  const engine::Phrase phrase = engine::label_phrase(engine_book, engine::Action::from_code(code));
  return phrase && engine::render(engine_book, phrase, out);
}

}  // namespace duelhall::client
