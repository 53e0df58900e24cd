// Compact binary encoding for state serialization (ByteWriter/ByteReader) and the protobuf wire
// format for views (ProtoWriter). The engine writes its views in the wire format of the
// ruleset's message in proto/ without linking protobuf: the bytes parse as that message, and a
// test holds each ruleset to protobuf's canonical form (fields ascending, defaults omitted,
// repeated scalars packed) so that re-serializing a parsed view gives the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace duelhall::engine {

struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void svarint(int64_t v) {
    varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void str(std::string_view s) {
    varint(s.size());
    out_.append(s);
  }
  void raw(std::string_view s) { out_.append(s); }
  template <typename T>
  void u8_list(const std::vector<T>& items) {
    varint(items.size());
    for (const T& v : items) u8(static_cast<uint8_t>(v));
  }
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}

  uint8_t u8() {
    need(1);
    return static_cast<uint8_t>(in_[pos_++]);
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = u8();
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw DecodeError("varint too long");
  }
  // A varint that must not exceed `max` (counts, indices): rejects garbage before allocating.
  uint64_t bounded(uint64_t max) {
    uint64_t v = varint();
    if (v > max) throw DecodeError("value out of range");
    return v;
  }
  int64_t svarint() {
    uint64_t v = varint();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  bool boolean() {
    uint8_t b = u8();
    if (b > 1) throw DecodeError("bad boolean");
    return b == 1;
  }
  std::string str() {
    uint64_t n = varint();
    need(n);
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  std::string_view raw(size_t n) {
    need(n);
    auto s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  template <typename T>
  std::vector<T> u8_list(size_t max_size) {
    size_t n = bounded(max_size);
    std::vector<T> items(n);
    for (T& v : items) v = static_cast<T>(u8());
    return items;
  }
  bool done() const { return pos_ == in_.size(); }
  void expect_done() const {
    if (!done()) throw DecodeError("trailing bytes");
  }

 private:
  void need(uint64_t n) const {
    if (n > in_.size() - pos_) throw DecodeError("truncated input");
  }
  std::string_view in_;
  size_t pos_ = 0;
};

// Writes protobuf wire format. Scalars equal to zero and empty strings or lists are omitted, as
// proto3 does, so callers write every field unconditionally and in ascending field order.
class ProtoWriter {
 public:
  explicit ProtoWriter(std::string& out) : out_(out) {}

  void uint_field(uint32_t field, uint64_t v) {
    if (v == 0) return;
    tag(field, 0);
    varint(v);
  }
  // For `sint32`/`sint64` fields (zigzag).
  void sint_field(uint32_t field, int64_t v) {
    if (v == 0) return;
    tag(field, 0);
    varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void bool_field(uint32_t field, bool v) { uint_field(field, v ? 1 : 0); }
  void string_field(uint32_t field, std::string_view s) {
    if (s.empty()) return;
    tag(field, 2);
    varint(s.size());
    out_.append(s);
  }
  // A packed repeated unsigned field (`repeated uint32` and friends).
  template <typename T>
  void packed_field(uint32_t field, std::span<const T> values) {
    if (values.empty()) return;
    size_t size = 0;
    for (T v : values) size += varint_size(static_cast<uint64_t>(v));
    tag(field, 2);
    varint(size);
    for (T v : values) varint(static_cast<uint64_t>(v));
  }
  template <typename T>
  void packed_field(uint32_t field, const std::vector<T>& values) {
    packed_field(field, std::span<const T>(values));
  }
  // A nested message: `fill(ProtoWriter&)` writes its fields. Written even when empty, as a
  // set singular message or a repeated element is.
  template <typename Fill>
  void message_field(uint32_t field, Fill&& fill) {
    tag(field, 2);
    // Reserve one length byte and widen afterwards in the rare case of a long message.
    const size_t at = out_.size();
    out_.push_back(0);
    fill(*this);
    const size_t len = out_.size() - at - 1;
    const size_t width = varint_size(len);
    if (width > 1) out_.insert(at + 1, width - 1, '\0');
    size_t pos = at;
    uint64_t v = len;
    while (v >= 0x80) {
      out_[pos++] = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_[pos] = static_cast<char>(v);
  }

  static size_t varint_size(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
      v >>= 7;
      ++n;
    }
    return n;
  }

 private:
  void tag(uint32_t field, uint32_t wire_type) {
    varint(static_cast<uint64_t>(field) << 3 | wire_type);
  }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string& out_;
};

}  // namespace duelhall::engine
