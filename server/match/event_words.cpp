#include "match/event_words.hpp"

namespace duelhall::server {

namespace {
constexpr uint32_t kMask = (1u << 14) - 1;

constexpr uint32_t kFnvBasis = 2166136261u;
uint32_t fnv1a_step(uint32_t hash, unsigned char c) {
  return (hash ^ c) * 16777619u;
}
uint32_t first_slot(uint32_t hash) {
  return (hash * 0x9e3779b1u) >> (32 - 14);
}
std::atomic<uint64_t> next_serial{1};
}  // namespace

EventWords::EventWords()
    : slots_(std::make_unique<std::atomic<uint64_t>[]>(kMask + 1)), serial_(next_serial++) {
  static_assert(kMask + 1 == 1u << kSlotBits);
  words_.reserve(kMaxWords);
}

uint32_t EventWords::find(std::string_view word, uint32_t hash) const {
  for (uint32_t i = first_slot(hash);; i = (i + 1) & kMask) {
    const uint64_t slot = slots_[i].load(std::memory_order_acquire);
    if (slot == 0) return 0;
    const auto id = static_cast<uint32_t>(slot);
    if (static_cast<uint32_t>(slot >> 32) == hash && words_[id - 1] == word) return id;
  }
}

uint32_t EventWords::add(std::string_view word, uint32_t hash) {
  if (const uint32_t id = find(word, hash)) return id;  // added meanwhile
  if (word.size() > kMaxWordBytes || words_.size() >= kMaxWords) return 0;
  words_.emplace_back(word);
  const auto id = static_cast<uint32_t>(words_.size());
  size_.store(words_.size(), std::memory_order_release);
  uint32_t i = first_slot(hash);
  while (slots_[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & kMask;
  slots_[i].store(uint64_t{hash} << 32 | id, std::memory_order_release);
  return id;
}

bool EventWords::encode(std::string_view text, std::vector<uint32_t>& ids) {
  const size_t start = ids.size();
  // One pass splits the text and hashes its words (each event is coded for every seat).
  uint32_t hash = kFnvBasis;
  size_t from = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ' ') {
      hash = fnv1a_step(hash, static_cast<unsigned char>(text[i]));
      continue;
    }
    const std::string_view word = text.substr(from, i - from);
    uint32_t id = find(word, hash);
    if (id == 0) {
      std::lock_guard lock(mutex_);
      id = add(word, hash);
    }
    if (id == 0) {
      ids.resize(start);
      return false;
    }
    ids.push_back(id);
    from = i + 1;
    hash = kFnvBasis;
  }
  return true;
}

}  // namespace duelhall::server
