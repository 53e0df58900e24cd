// The make side of the diff (wire_diff.hpp's Differ). Successive views of one viewer differ in a
// few records, so the differ walks the two messages one field's run of records at a time and
// parses into Records only the runs that changed: where the two go on with the same bytes, the
// runs in them are passed reading `before` only (which a patch needs well formed, so it is always
// read to its end), and the walk over `after` jumps as far.
#include <algorithm>
#include <bit>
#include <cstring>

#include "wire_diff.hpp"
#include "wire_format.hpp"

namespace duelhall::wire {
namespace {

using namespace format;

// How many leading bytes `a` and `b` share.
size_t common_prefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    // Eight bytes a step: views are tens of bytes, most of them shared.
    for (; i + 8 <= n; i += 8) {
      uint64_t x = 0;
      uint64_t y = 0;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return i + static_cast<size_t>(std::countr_zero(x ^ y) / 8);
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// The value's bytes when `run` is one varint record of `field` with its tag in the minimal form
// (the applier of a kOpVarint entry writes that tag itself); empty otherwise.
std::string_view lone_varint(uint32_t field, std::string_view run) {
  Reader r(run);
  uint64_t key = 0;
  if (!r.varint(key) || key != uint64_t{field} << 3 || r.pos() != varint_size(key)) return {};
  const size_t at = r.pos();
  uint64_t value = 0;
  if (!r.varint(value) || !r.done()) return {};
  return run.substr(at);
}

// A forward walk over a message's records one field's run at a time, checking on the way what
// parse_records and is_grouped check, without storing the records.
class Runs {
 public:
  explicit Runs(std::string_view bytes) : bytes_(bytes) { peek(); }
  // False once a record is malformed or a field number went down: no patch can refer to this
  // message's records.
  bool ok() const { return ok_; }
  bool done() const { return pos_ == bytes_.size(); }
  size_t left() const { return bytes_.size() - pos_; }
  // The next run's field; UINT32_MAX when done, so that the other message's field is smaller.
  uint32_t field() const { return field_; }

  // The run of `field`'s records at the walk's position, which the walk then passes; empty
  // when the next record is of another field.
  std::string_view take(uint32_t field) {
    if (!ok_ || done() || field_ != field) return {};
    const size_t start = pos_;
    last_field_ = field;
    do {
      if (!skip_value()) {
        ok_ = false;
        return {};
      }
      peek();
    } while (ok_ && field_ == field);
    return bytes_.substr(start, pos_ - start);
  }

  // Passes the runs this walk shares byte for byte with `other` from both walks' positions on,
  // reading this message only; `other` then jumps as far. Successive views differ in a few
  // records, so most of both are passed this way.
  void skip_shared(Runs& other) {
    const size_t from = pos_;
    const size_t shared = common_prefix(bytes_.substr(pos_), other.bytes_.substr(other.pos_));
    if (shared == left() && shared == other.left()) {
      skip_rest();  // the same to the end: only one side needs checking
    } else {
      skip_within(from + shared);
    }
    if (pos_ == from) return;
    other.pos_ += pos_ - from;
    other.last_field_ = last_field_;
    other.peek();  // the tag there may be where the two differ
  }

  // Passes every run left: true when the whole message was well formed and grouped.
  bool skip_rest() {
    while (ok_ && !done()) take(field_);
    return ok_;
  }

 private:
  // Passes the runs that end, with the tag of the record after them, within the first `limit`
  // bytes: a message with the same bytes there has the same runs, ended the same way.
  void skip_within(size_t limit) {
    while (true) {
      const Runs at_run = *this;
      take(field_);
      if (!ok_ || done() || value_at_ > limit) {
        *this = at_run;
        return;
      }
    }
  }

  // Reads the tag at pos_: the next record's field and wire type.
  void peek() {
    field_ = UINT32_MAX;
    if (done()) return;
    uint64_t key = byte_at(pos_);
    value_at_ = pos_ + 1;
    if (key >= 0x80) {  // fields from 16 on: the general decoder
      Reader r(bytes_, pos_);
      if (!r.varint(key)) key = 0;
      value_at_ = r.pos();
    }
    if ((key >> 3) == 0 || (key >> 3) > kMaxField || (key >> 3) < last_field_) {
      ok_ = false;
      return;
    }
    field_ = static_cast<uint32_t>(key >> 3);
    wire_type_ = static_cast<uint8_t>(key & 7);
  }

  // Moves pos_ past the value of the record whose tag peek read: false when it is truncated or
  // of a type views do not use. A varint or a length below 128, the common case, is read here.
  bool skip_value() {
    if (value_at_ < bytes_.size() && byte_at(value_at_) < 0x80) {
      if (wire_type_ == 0) {
        pos_ = value_at_ + 1;
        return true;
      }
      if (wire_type_ == 2) {
        const size_t length = byte_at(value_at_);
        if (length > bytes_.size() - value_at_ - 1) return false;
        pos_ = value_at_ + 1 + length;
        return true;
      }
    }
    Reader r(bytes_, value_at_);
    if (!r.skip_value(wire_type_)) return false;
    pos_ = r.pos();
    return true;
  }

  uint8_t byte_at(size_t at) const { return static_cast<uint8_t>(bytes_[at]); }

  std::string_view bytes_;
  size_t pos_ = 0;       // where the next record starts
  size_t value_at_ = 0;  // where its value starts, after its tag
  uint32_t field_ = UINT32_MAX;
  uint8_t wire_type_ = 0;
  uint32_t last_field_ = 0;  // the field of the last run taken: fields must not go down
  bool ok_ = true;
};

}  // namespace

// The buffers of one nesting depth, reused by every call: a patch of small views then costs no
// allocation once they have grown to fit.
struct Differ::Level {
  std::vector<Record> old_records;  // the changed run being written
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
  out.clear();
  return write_fields(before.payload, after.payload, depth + 1, out);
}

// One changed field, given its runs of records (checked by Runs): its whole new records, or
// element edits when the count is unchanged.
void Differ::write_field(uint32_t field, std::string_view old_run, std::string_view new_run,
                         int depth, std::string& out) {
  if (new_run.empty()) {
    put_varint(out, static_cast<uint64_t>(field) << 2 | kOpRemove);
    return;
  }
  // The commonest change, a scalar's new value, costs a header and the value.
  if (const std::string_view value = lone_varint(field, new_run); !value.empty()) {
    put_varint(out, static_cast<uint64_t>(field) << 2 | kOpVarint);
    out += value;
    return;
  }
  Level& here = level(depth);
  const std::vector<Record>& after = here.new_records;
  parse_records(new_run, here.new_records);
  const uint64_t replace_header = static_cast<uint64_t>(field) << 2 | kOpReplace;
  const size_t replace_size =
      varint_size(replace_header) + varint_size(new_run.size()) + new_run.size();
  const std::vector<Record>& before = here.old_records;
  if (!old_run.empty() && parse_records(old_run, here.old_records) &&
      before.size() == after.size()) {
    std::string& items = here.items;
    items.clear();
    uint64_t count = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      const Record& o = before[i];
      const Record& n = after[i];
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
  put_bytes(out, new_run);
}

// The entries of every field whose runs differ, in ascending field order. False, with `out`
// partly written, when either message is not a grouped message.
bool Differ::write_fields(std::string_view before, std::string_view after, int depth,
                          std::string& out) {
  Runs old_runs(before);
  Runs new_runs(after);
  while (true) {
    old_runs.skip_shared(new_runs);
    if (!old_runs.ok() || !new_runs.ok()) return false;
    if (old_runs.done() && new_runs.done()) return true;
    const uint32_t field = std::min(old_runs.field(), new_runs.field());
    const std::string_view old_run = old_runs.take(field);
    const std::string_view new_run = new_runs.take(field);
    if (!old_runs.ok() || !new_runs.ok()) return false;
    if (old_run != new_run) write_field(field, old_run, new_run, depth, out);
  }
}

void Differ::make_patch(std::string_view before, std::string_view after, std::string& out) {
  out.clear();
  if (before == after) return;
  const size_t whole_size = varint_size(0) + varint_size(after.size()) + after.size();
  if (write_fields(before, after, 0, out) && out.size() < whole_size) return;
  out.clear();
  put_varint(out, 0);
  put_bytes(out, after);
}

}  // namespace duelhall::wire
