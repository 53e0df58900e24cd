// View diffs: a compact, schema-free patch between two protobuf messages in canonical form.
//
// Views are protobuf bytes whose records are grouped by field number in ascending order (the
// canonical form ProtoWriter writes). A patch lists, in ascending field order, only the fields
// whose records changed, each either as its complete new records or, when the record count is
// unchanged, as per-element edits: a new record, or a nested patch of the old record's payload.
// Applying it walks the old records once and rebuilds the new bytes exactly, needing no schema,
// so any client (a browser in a few dozen lines) can follow a view. The byte format is specified
// in docs/protocol.md ("The diff format"); this library is its reference implementation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace duelhall::wire {

// One top-level record of a protobuf message.
struct Record {
  uint32_t field = 0;
  uint8_t wire_type = 0;
  std::string_view whole;    // tag, length prefix and payload
  std::string_view tag;      // the tag's bytes
  std::string_view payload;  // the value (without the length prefix for wire type 2)
};

// Splits `bytes` into records. False on malformed input (truncation, groups, field number 0).
bool parse_records(std::string_view bytes, std::vector<Record>& out);
// True when each field's records are contiguous and fields ascend: what patches require.
bool is_grouped(const std::vector<Record>& records);

// The patch turning `before` into `after`; empty when they are equal. Works for any bytes:
// when either side is not a grouped message the patch carries `after` whole.
std::string make_patch(std::string_view before, std::string_view after);
// The same into `out`, with this thread's Differ (below): no allocation once warm.
void make_patch(std::string_view before, std::string_view after, std::string& out);

// make_patch with buffers kept between calls: once they have grown to the views' size a patch
// costs no allocation. One Differ per thread (it is not thread-safe).
class Differ {
 public:
  Differ();
  ~Differ();
  Differ(Differ&&) noexcept;
  Differ& operator=(Differ&&) noexcept;
  // Writes the patch turning `before` into `after` to `out` (cleared first; its capacity is kept).
  void make_patch(std::string_view before, std::string_view after, std::string& out);

 private:
  struct Level;
  Level& level(int depth);
  bool nested_patch(const Record& before, const Record& after, int depth, std::string& out);
  void write_field(uint32_t field, std::string_view old_run, std::string_view new_run, int depth,
                   std::string& out);
  bool write_fields(std::string_view before, std::string_view after, int depth, std::string& out);
  std::vector<Level> levels_;
};

// Applies `patch` to `before`, writing the result to `after`. False when the patch is malformed
// or does not fit `before` (a client then asks for a snapshot).
bool apply_patch(std::string_view before, std::string_view patch, std::string& after);

}  // namespace duelhall::wire
