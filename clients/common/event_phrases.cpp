#include "event_phrases.hpp"

#include <string_view>

namespace duelhall::client {

namespace {

// The arguments of the update's phrases, read in order.
class Args {
 public:
  explicit Args(std::span<const int32_t> args) : args_(args) {}
  bool take(int32_t& v) {
    if (next_ == args_.size()) return false;
    v = args_[next_++];
    return true;
  }
  bool done() const { return next_ == args_.size(); }

 private:
  std::span<const int32_t> args_;
  size_t next_ = 0;
};

const PhraseList* find_list(const PhraseBook& book, std::string_view name) {
  for (const PhraseList& list : book.lists()) {
    if (list.name() == name) return &list;
  }
  return nullptr;
}

bool render_slot(const PhraseBook& book, std::string_view slot, Args& args, std::string& out) {
  int32_t v = 0;
  if (slot == "s") {
    if (!args.take(v) || v < 0) return false;
    out += '@';
    out += std::to_string(v);
    return true;
  }
  if (slot == "n") {
    if (!args.take(v)) return false;
    out += std::to_string(v);
    return true;
  }
  const bool many = slot.ends_with('*');
  const PhraseList* list = find_list(book, many ? slot.substr(0, slot.size() - 1) : slot);
  if (!list) return false;
  int32_t count = 1;
  if (many && (!args.take(count) || count < 0)) return false;
  for (int32_t i = 0; i < count; ++i) {
    if (!args.take(v) || v < 0 || v >= list->entries_size()) return false;
    if (i > 0) out += ", ";
    out += list->entries(v);
  }
  return true;
}

bool render_one(const PhraseBook& book, Args& args, std::string& out) {
  int32_t id = 0;
  if (!args.take(id) || id <= 0 || id >= book.templates_size()) return false;
  const std::string_view text = book.templates(id);
  for (size_t at = 0; at < text.size();) {
    const size_t open = text.find('{', at);
    if (open == std::string_view::npos) {
      out.append(text.substr(at));
      break;
    }
    out.append(text.substr(at, open - at));
    const size_t close = text.find('}', open);
    if (close == std::string_view::npos) return false;
    if (!render_slot(book, text.substr(open + 1, close - open - 1), args, out)) return false;
    at = close + 1;
  }
  return true;
}

}  // namespace

bool render_phrases(const PhraseBook& book, std::span<const int32_t> phrases,
                    std::vector<std::string>& out) {
  Args args(phrases);
  while (!args.done()) {
    std::string text;
    if (!render_one(book, args, text)) {
      out.emplace_back("?");
      return false;
    }
    out.push_back(std::move(text));
  }
  return true;
}

}  // namespace duelhall::client
