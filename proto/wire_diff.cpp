#include "wire_diff.hpp"

namespace duelhall::wire {
namespace {

// Entry header: field number << 2 | op. Header 0 (field 0) carries the whole new message.
constexpr uint64_t kOpReplace = 0;   // length, then the field's new records
constexpr uint64_t kOpElements = 1;  // count, then (index << 1 | nested, length, bytes) items
constexpr uint64_t kOpVarint = 2;    // the field is now one varint record: its value follows
constexpr uint64_t kOpRemove = 3;    // the field has no records any more
// Nested patches deeper than this are written as plain replacements (and refused when applied),
// which bounds recursion on adversarial bytes.
constexpr int kMaxDepth = 16;

size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_bytes(std::string& out, std::string_view bytes) {
  put_varint(out, bytes.size());
  out.append(bytes);
}

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
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

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

std::string_view span_of(const std::vector<Record>& records, size_t begin, size_t end) {
  if (begin == end) return {};
  const char* first = records[begin].whole.data();
  const char* last = records[end - 1].whole.data() + records[end - 1].whole.size();
  return {first, static_cast<size_t>(last - first)};
}

bool parse_grouped(std::string_view bytes, std::vector<Record>& out) {
  return parse_records(bytes, out) && is_grouped(out);
}

}  // namespace

// The buffers of one nesting depth, reused by every call: a patch of small views then costs no
// allocation once they have grown to fit.
struct Differ::Level {
  std::vector<Record> old_records;
  std::vector<Record> new_records;
  std::string items;   // element edits of the field being written
  std::string nested;  // a nested patch being tried against a plain replacement
};

Differ::Differ() = default;
Differ::~Differ() = default;
Differ::Differ(Differ&&) noexcept = default;
Differ& Differ::operator=(Differ&&) noexcept = default;

Differ::Level& Differ::level(int depth) {
  // Sized once for the deepest nesting, so references held by outer levels stay valid.
  if (levels_.empty()) levels_.resize(kMaxDepth + 1);
  return levels_[static_cast<size_t>(depth)];
}

// A nested patch for one length-delimited record into `out`, when applying it rebuilds `after`
// exactly (same tag, minimal length prefix, both payloads grouped messages).
bool Differ::nested_patch(const Record& before, const Record& after, int depth, std::string& out) {
  if (depth >= kMaxDepth || before.wire_type != 2 || after.wire_type != 2) return false;
  if (before.tag != after.tag) return false;
  if (after.whole.size() !=
      after.tag.size() + varint_size(after.payload.size()) + after.payload.size()) {
    return false;
  }
  Level& inner = level(depth + 1);
  if (!parse_grouped(before.payload, inner.old_records) ||
      !parse_grouped(after.payload, inner.new_records)) {
    return false;
  }
  out.clear();
  write_fields(inner.old_records, inner.new_records, depth + 1, out);
  return true;
}

// One changed field: its whole new records, or element edits when the count is unchanged.
void Differ::write_field(uint32_t field, const std::vector<Record>& before, size_t ob, size_t oe,
                         const std::vector<Record>& after, size_t nb, size_t ne, int depth,
                         std::string& out) {
  if (nb == ne) {
    put_varint(out, static_cast<uint64_t>(field) << 2 | kOpRemove);
    return;
  }
  // The commonest change, a scalar's new value, costs a header and the value: the applier
  // writes the tag itself, so the tag must be in its minimal form.
  if (ne - nb == 1 && after[nb].wire_type == 0 &&
      after[nb].tag.size() == varint_size(static_cast<uint64_t>(field) << 3)) {
    put_varint(out, static_cast<uint64_t>(field) << 2 | kOpVarint);
    out += after[nb].payload;
    return;
  }
  const std::string_view new_span = span_of(after, nb, ne);
  const uint64_t replace_header = static_cast<uint64_t>(field) << 2 | kOpReplace;
  const size_t replace_size =
      varint_size(replace_header) + varint_size(new_span.size()) + new_span.size();
  if (oe - ob == ne - nb && ob != oe) {
    Level& here = level(depth);
    std::string& items = here.items;
    items.clear();
    uint64_t count = 0;
    for (size_t i = 0; i < oe - ob; ++i) {
      const Record& o = before[ob + i];
      const Record& n = after[nb + i];
      if (o.whole == n.whole) continue;
      ++count;
      if (nested_patch(o, n, depth, here.nested) &&
          here.nested.size() + varint_size(here.nested.size()) <
              n.whole.size() + varint_size(n.whole.size())) {
        put_varint(items, i << 1 | 1);
        put_bytes(items, here.nested);
      } else {
        put_varint(items, i << 1);
        put_bytes(items, n.whole);
      }
    }
    const uint64_t elements_header = static_cast<uint64_t>(field) << 2 | kOpElements;
    if (varint_size(elements_header) + varint_size(count) + items.size() < replace_size) {
      put_varint(out, elements_header);
      put_varint(out, count);
      out += items;
      return;
    }
  }
  put_varint(out, replace_header);
  put_bytes(out, new_span);
}

void Differ::write_fields(const std::vector<Record>& before, const std::vector<Record>& after,
                          int depth, std::string& out) {
  size_t i = 0;
  size_t j = 0;
  while (i < before.size() || j < after.size()) {
    uint32_t field = UINT32_MAX;
    if (i < before.size()) field = before[i].field;
    if (j < after.size() && after[j].field < field) field = after[j].field;
    const size_t ob = i;
    while (i < before.size() && before[i].field == field) ++i;
    const size_t nb = j;
    while (j < after.size() && after[j].field == field) ++j;
    if (span_of(before, ob, i) == span_of(after, nb, j)) continue;
    write_field(field, before, ob, i, after, nb, j, depth, out);
  }
}

void Differ::make_patch(std::string_view before, std::string_view after, std::string& out) {
  out.clear();
  if (before == after) return;
  const size_t whole_size = varint_size(0) + varint_size(after.size()) + after.size();
  Level& top = level(0);
  if (parse_grouped(before, top.old_records) && parse_grouped(after, top.new_records)) {
    write_fields(top.old_records, top.new_records, 0, out);
    if (out.size() < whole_size) return;
    out.clear();
  }
  put_varint(out, 0);
  put_bytes(out, after);
}

namespace {

bool apply_at(std::string_view before, std::string_view patch, std::string& out, int depth);

// Applies one entry's element edits to the old records [begin, end) of its field.
bool apply_elements(Reader& r, const std::vector<Record>& old, size_t begin, size_t end, int depth,
                    std::string& out) {
  uint64_t count = 0;
  if (!r.varint(count) || count == 0 || count > end - begin) return false;
  size_t next = begin;  // first old record of the field not yet written
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t item = 0;
    std::string_view bytes;
    if (!r.varint(item) || !r.length_prefixed(bytes)) return false;
    const uint64_t index = item >> 1;
    if (index >= end - begin || begin + index < next) return false;
    for (; next < begin + index; ++next) out += old[next].whole;
    const Record& o = old[next++];
    if (!(item & 1)) {
      out += bytes;
      continue;
    }
    if (o.wire_type != 2) return false;
    std::string payload;
    if (!apply_at(o.payload, bytes, payload, depth + 1)) return false;
    out += o.tag;
    put_bytes(out, payload);
  }
  for (; next < end; ++next) out += old[next].whole;
  return true;
}

bool apply_at(std::string_view before, std::string_view patch, std::string& out, int depth) {
  out.clear();
  if (depth > kMaxDepth) return false;
  if (patch.empty()) {
    out.assign(before);
    return true;
  }
  Reader r(patch);
  uint64_t header = 0;
  if (!r.varint(header)) return false;
  if (header == 0) {
    std::string_view whole;
    if (!r.length_prefixed(whole) || !r.done()) return false;
    out.assign(whole);
    return true;
  }
  std::vector<Record> old;
  if (!parse_grouped(before, old)) return false;
  size_t idx = 0;
  uint64_t last_field = 0;
  while (true) {
    const uint64_t field = header >> 2;
    const uint64_t op = header & 3;
    if (field <= last_field || field > 0x1fffffff) return false;
    last_field = field;
    while (idx < old.size() && old[idx].field < field) out += old[idx++].whole;
    const size_t begin = idx;
    while (idx < old.size() && old[idx].field == field) ++idx;
    if (op == kOpReplace) {
      std::string_view records;
      if (!r.length_prefixed(records)) return false;
      out += records;
    } else if (op == kOpElements) {
      if (!apply_elements(r, old, begin, idx, depth, out)) return false;
    } else if (op == kOpVarint) {
      const size_t at = r.pos();
      uint64_t value = 0;
      if (!r.varint(value)) return false;
      put_varint(out, field << 3);
      out += patch.substr(at, r.pos() - at);
    } else {
      // kOpRemove: the old records are skipped and nothing replaces them.
    }
    if (r.done()) break;
    if (!r.varint(header)) return false;
  }
  while (idx < old.size()) out += old[idx++].whole;
  return true;
}

}  // namespace

bool parse_records(std::string_view bytes, std::vector<Record>& out) {
  out.clear();
  Reader r(bytes);
  while (!r.done()) {
    const size_t start = r.pos();
    uint64_t key = 0;
    if (!r.varint(key)) return false;
    Record rec;
    const uint64_t field = key >> 3;
    if (field == 0 || field > 0x1fffffff) return false;
    rec.field = static_cast<uint32_t>(field);
    rec.wire_type = static_cast<uint8_t>(key & 7);
    rec.tag = bytes.substr(start, r.pos() - start);
    switch (rec.wire_type) {
      case 0: {
        const size_t at = r.pos();
        uint64_t ignored = 0;
        if (!r.varint(ignored)) return false;
        rec.payload = bytes.substr(at, r.pos() - at);
        break;
      }
      case 1:
        if (!r.bytes(8, rec.payload)) return false;
        break;
      case 2:
        if (!r.length_prefixed(rec.payload)) return false;
        break;
      case 5:
        if (!r.bytes(4, rec.payload)) return false;
        break;
      default:
        return false;  // groups (3, 4) are not used by proto3 views; 6, 7 are invalid
    }
    rec.whole = bytes.substr(start, r.pos() - start);
    out.push_back(rec);
  }
  return true;
}

bool is_grouped(const std::vector<Record>& records) {
  for (size_t i = 1; i < records.size(); ++i) {
    if (records[i].field < records[i - 1].field) return false;
  }
  return true;
}

std::string make_patch(std::string_view before, std::string_view after) {
  std::string patch;
  make_patch(before, after, patch);
  return patch;
}

void make_patch(std::string_view before, std::string_view after, std::string& out) {
  thread_local Differ differ;
  differ.make_patch(before, after, out);
}

bool apply_patch(std::string_view before, std::string_view patch, std::string& after) {
  return apply_at(before, patch, after, 0);
}

}  // namespace duelhall::wire
