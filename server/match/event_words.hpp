// Event texts as words told once per match seat (protocol 4, docs/protocol.md): a seat's events
// travel as the ids of their words (the text split at single spaces), and each word's text is
// told in the seat's frames the first time it needs it. Jedi Duel's events use a vocabulary of a
// few hundred words ("@0", "takes", "a", "Middle", "Stance", "with", "5♥"), so once a connection
// has been told them an event costs a byte a word instead of its text.
//
// The table is the node's, shared by every match and ruleset: ids are given in order of first
// use and never change, so a client may keep them for as long as it talks to this node. Bounded:
// once full (or for a word too long) `encode` fails and the event goes as its text.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace duelhall::server {

class EventWords {
 public:
  static constexpr uint32_t kMaxWords = 8192;
  static constexpr size_t kMaxWordBytes = 64;

  EventWords();

  // Appends the ids of `text`'s words to `ids` (ids start at 1; 0 is free for a separator).
  // False, with `ids` as it was, when a word is too long or new while the table is full.
  // Thread-safe; a known word is found without a lock (each action codes a few of them for
  // every seat).
  bool encode(std::string_view text, std::vector<uint32_t>& ids);
  // The text of an id that `encode` gave. Thread-safe, lock-free.
  std::string_view word(uint32_t id) const { return words_[id - 1]; }
  size_t size() const { return size_.load(std::memory_order_acquire); }
  // Different for every table the process makes (ids are only valid with their own table).
  uint64_t serial() const { return serial_; }

 private:
  // Open addressing, at most half full: a slot holds (hash << 32 | id), 0 while empty, and is
  // published with a release store after its word is in `words_`.
  static constexpr uint32_t kSlotBits = 14;
  static_assert((1u << kSlotBits) >= 2 * kMaxWords);
  uint32_t find(std::string_view word, uint32_t hash) const;  // 0: not there
  uint32_t add(std::string_view word, uint32_t hash);         // under mutex_; 0: no room

  std::unique_ptr<std::atomic<uint64_t>[]> slots_;
  std::mutex mutex_;  // taken only to add a word
  // Reserved for kMaxWords up front, so a word never moves and `word` reads without the lock
  // (operator[] reads only the start, emplace_back writes only the end).
  std::vector<std::string> words_;
  std::atomic<size_t> size_{0};
  const uint64_t serial_;
};

// Which word ids a match seat's client was told in that seat's frames (Match::SeatSlot): a
// bitset that grows to the highest id told (a Jedi Duel seat: a few dozen words, ids mostly
// among the node's first few hundred, so tens of bytes), at most EventWords::kMaxWords bits.
class WordsTold {
 public:
  // True when `id` was not told yet; records it as told.
  bool fresh(uint32_t id) {
    const size_t block = id / 64;
    if (block >= bits_.size()) bits_.resize(block + 1, 0);
    const uint64_t bit = uint64_t{1} << (id % 64);
    if (bits_[block] & bit) return false;
    bits_[block] |= bit;
    return true;
  }
  void clear() { std::vector<uint64_t>().swap(bits_); }

 private:
  std::vector<uint64_t> bits_;
};

}  // namespace duelhall::server
