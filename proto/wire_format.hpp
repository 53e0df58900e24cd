// The diff format's building blocks, shared by the differ (wire_differ.cpp) and the applier
// (wire_diff.cpp): entry headers, varints, a bounds-checked reader. Internal to the library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace duelhall::wire::format {

// Entry header: field number << 2 | op. Header 0 (field 0) carries the whole new message.
constexpr uint64_t kOpReplace = 0;   // length, then the field's new records
constexpr uint64_t kOpElements = 1;  // count, then (index << 1 | nested, length, bytes) items
constexpr uint64_t kOpVarint = 2;    // the field is now one varint record: its value follows
constexpr uint64_t kOpRemove = 3;    // the field has no records any more
// Nested patches deeper than this are written as plain replacements (and refused when applied),
// which bounds recursion on adversarial bytes.
constexpr int kMaxDepth = 16;
// The largest field number protobuf allows.
constexpr uint64_t kMaxField = 0x1fffffff;

inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

inline void put_bytes(std::string& out, std::string_view bytes) {
  put_varint(out, bytes.size());
  out.append(bytes);
}

class Reader {
 public:
  explicit Reader(std::string_view in, size_t pos = 0) : in_(in), pos_(pos) {}
  bool done() const { return pos_ == in_.size(); }
  size_t pos() const { return pos_; }
  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) return false;
      const auto b = static_cast<uint8_t>(in_[pos_++]);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool bytes(size_t n, std::string_view& out) {
    if (n > in_.size() - pos_) return false;
    out = in_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool length_prefixed(std::string_view& out) {
    uint64_t n = 0;
    return varint(n) && bytes(n, out);
  }
  // Past the value of a record of `wire_type` (whose tag was read): false when it is truncated
  // or of a type views do not use (groups 3 and 4; 6 and 7 are invalid).
  bool skip_value(uint8_t wire_type) {
    std::string_view ignored;
    switch (wire_type) {
      case 0: {
        uint64_t value = 0;
        return varint(value);
      }
      case 1:
        return bytes(8, ignored);
      case 2:
        return length_prefixed(ignored);
      case 5:
        return bytes(4, ignored);
      default:
        return false;
    }
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace duelhall::wire::format
