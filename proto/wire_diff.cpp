// The apply side of the diff and the record parser (the make side is wire_differ.cpp).
#include "wire_diff.hpp"

#include "wire_format.hpp"

namespace duelhall::wire {
namespace {

using namespace format;

bool parse_grouped(std::string_view bytes, std::vector<Record>& out) {
  return parse_records(bytes, out) && is_grouped(out);
}

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
    if (field <= last_field || field > kMaxField) return false;
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
    if (field == 0 || field > kMaxField) return false;
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
