// The view diff round-trips exactly: random canonical messages and random edits of them, plus
// arbitrary bytes (which take the whole-message fallback), and malformed patches are refused.
#include "wire_diff.hpp"

#include <catch2/catch.hpp>

#include "core/bytes.hpp"
#include "core/rng.hpp"

namespace {

using duelhall::engine::ProtoWriter;
using duelhall::engine::Rng;

// A random message tree, kept as data so that it can be edited and re-encoded canonically.
struct Node {
  struct Field {
    uint32_t number = 0;
    int kind = 0;  // 0 varint, 1 string, 2 packed, 3 repeated messages, 4 sint
    uint64_t value = 0;
    std::string text;
    std::vector<uint32_t> packed;
    std::vector<Node> children;
  };
  std::vector<Field> fields;  // ascending numbers
};

Node random_node(Rng& rng, int depth) {
  Node node;
  uint32_t number = 0;
  const int count = static_cast<int>(rng.below(depth == 0 ? 12 : 6));
  for (int i = 0; i < count; ++i) {
    number += 1 + rng.below(rng.below(8) == 0 ? 300 : 3);
    Node::Field f;
    f.number = number;
    f.kind = static_cast<int>(rng.below(depth < 3 ? 5 : 3));
    f.value = rng.below(4) == 0 ? rng.next_u64() : rng.below(200);
    for (uint32_t k = rng.below(12); k > 0; --k)
      f.text.push_back(static_cast<char>('a' + rng.below(26)));
    for (uint32_t k = rng.below(10); k > 0; --k) f.packed.push_back(rng.below(k % 3 ? 90 : 70000));
    if (f.kind == 3) {
      for (uint32_t k = rng.below(5); k > 0; --k) f.children.push_back(random_node(rng, depth + 1));
    }
    node.fields.push_back(std::move(f));
  }
  return node;
}

void encode(const Node& node, ProtoWriter& w) {
  for (const auto& f : node.fields) {
    switch (f.kind) {
      case 0:
        w.uint_field(f.number, f.value);
        break;
      case 1:
        w.string_field(f.number, f.text);
        break;
      case 2:
        w.packed_field(f.number, f.packed);
        break;
      case 3:
        for (const Node& child : f.children) {
          w.message_field(f.number, [&](ProtoWriter& inner) { encode(child, inner); });
        }
        break;
      default:
        w.sint_field(f.number, static_cast<int64_t>(f.value) - 100);
        break;
    }
  }
}

std::string encode(const Node& node) {
  std::string out;
  ProtoWriter w(out);
  encode(node, w);
  return out;
}

// A handful of small edits, the kind a game step makes: counters, lists, nested records.
void edit(Node& node, Rng& rng, int depth) {
  if (node.fields.empty() || rng.below(10) == 0) {
    Node extra = random_node(rng, depth + 1);
    if (!extra.fields.empty()) {
      Node::Field f = extra.fields.front();
      f.number = node.fields.empty() ? 1 : node.fields.back().number + 1;
      node.fields.push_back(f);
    }
    return;
  }
  Node::Field& f = node.fields[rng.below(static_cast<uint32_t>(node.fields.size()))];
  switch (rng.below(6)) {
    case 0:
      f.value = rng.below(3) == 0 ? 0 : f.value + 1 + rng.below(5);
      break;
    case 1:
      f.text = rng.below(3) == 0 ? "" : f.text + "x";
      break;
    case 2:
      if (f.packed.empty() || rng.below(2))
        f.packed.push_back(rng.below(60));
      else
        f.packed.erase(f.packed.begin() + rng.below(static_cast<uint32_t>(f.packed.size())));
      break;
    case 3:
      if (!f.children.empty()) {
        edit(f.children[rng.below(static_cast<uint32_t>(f.children.size()))], rng, depth + 1);
      } else {
        f.children.push_back(random_node(rng, depth + 1));
      }
      break;
    case 4:
      if (!f.children.empty()) f.children.pop_back();
      break;
    default:
      f.kind = static_cast<int>(rng.below(5));
      break;
  }
}

void require_round_trip(const std::string& before, const std::string& after) {
  const std::string patch = duelhall::wire::make_patch(before, after);
  std::string rebuilt;
  REQUIRE(duelhall::wire::apply_patch(before, patch, rebuilt));
  REQUIRE(rebuilt == after);
}

}  // namespace

TEST_CASE("equal views give an empty patch that changes nothing") {
  Rng rng(duelhall::engine::seed_from_number(1));
  const std::string view = encode(random_node(rng, 0));
  CHECK(duelhall::wire::make_patch(view, view).empty());
  std::string rebuilt;
  REQUIRE(duelhall::wire::apply_patch(view, "", rebuilt));
  CHECK(rebuilt == view);
}

TEST_CASE("random canonical views and random edits round-trip exactly") {
  Rng rng(duelhall::engine::seed_from_number(2));
  size_t patch_bytes = 0;
  size_t view_bytes = 0;
  int steps = 0;
  for (int game = 0; game < 300; ++game) {
    Node node = random_node(rng, 0);
    std::string before = encode(node);
    for (int step = 0; step < 30; ++step) {
      for (uint32_t k = 1 + rng.below(2); k > 0; --k) edit(node, rng, 0);
      const std::string after = encode(node);
      require_round_trip(before, after);
      patch_bytes += duelhall::wire::make_patch(before, after).size();
      view_bytes += after.size();
      ++steps;
      before = after;
    }
  }
  // One or two small edits must not cost anywhere near a whole view.
  CHECK(patch_bytes * 4 < view_bytes);
  INFO("steps " << steps << " patch bytes " << patch_bytes << " view bytes " << view_bytes);
}

TEST_CASE("a changed counter inside a nested record costs a few bytes") {
  std::string before;
  std::string after;
  for (int value : {3, 4}) {
    std::string& out = value == 3 ? before : after;
    ProtoWriter w(out);
    w.uint_field(1, 7);
    w.string_field(2, "a fairly long name that should not be resent");
    for (int p = 0; p < 2; ++p) {
      w.message_field(3, [&](ProtoWriter& inner) {
        inner.uint_field(1, p == 1 ? static_cast<uint64_t>(value) : 9);
        inner.packed_field(2, std::vector<uint32_t>{1, 2, 3, 4, 5, 6});
      });
    }
  }
  const std::string patch = duelhall::wire::make_patch(before, after);
  CHECK(patch.size() <= 8);
  require_round_trip(before, after);
}

TEST_CASE("arbitrary bytes round-trip through the whole-message fallback") {
  Rng rng(duelhall::engine::seed_from_number(3));
  for (int i = 0; i < 3000; ++i) {
    std::string before(rng.below(40), '\0');
    for (char& c : before) c = static_cast<char>(rng.below(256));
    std::string after = before;
    if (!after.empty()) after[rng.below(static_cast<uint32_t>(after.size()))] ^= 0x11;
    if (rng.below(3) == 0) after.push_back(static_cast<char>(rng.below(256)));
    require_round_trip(before, after);
  }
}

TEST_CASE("field additions and removals at every position round-trip") {
  Rng rng(duelhall::engine::seed_from_number(4));
  for (int i = 0; i < 2000; ++i) {
    const std::string a = encode(random_node(rng, 0));
    const std::string b = encode(random_node(rng, 0));
    require_round_trip(a, b);
    require_round_trip(b, a);
    require_round_trip("", a);
    require_round_trip(a, "");
  }
}

TEST_CASE("malformed or mismatched patches are refused, never crash") {
  Rng rng(duelhall::engine::seed_from_number(5));
  Node node = random_node(rng, 0);
  const std::string before = encode(node);
  std::string out;
  // Truncated whole message; ELEMENTS on a field the old view lacks; descending fields.
  CHECK_FALSE(duelhall::wire::apply_patch(before, std::string("\x00\x05\x01", 3), out));
  CHECK_FALSE(duelhall::wire::apply_patch("", std::string("\x05\x01\x00\x01\x08", 5), out));
  CHECK_FALSE(
      duelhall::wire::apply_patch("\x08\x01\x10\x01", std::string("\x08\x00\x04\x00", 4), out));
  int refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string patch(1 + rng.below(12), '\0');
    for (char& c : patch) c = static_cast<char>(rng.below(256));
    if (!duelhall::wire::apply_patch(before, patch, out)) ++refused;
  }
  CHECK(refused > 0);
}

// The differ passes the runs two views share byte for byte reading one side only (wire_differ.cpp),
// so the places where the shared bytes end are where it could go wrong.
TEST_CASE("patches apply exactly wherever the shared bytes of the two views end") {
  using duelhall::wire::make_patch;
  const auto view = [](uint64_t first, bool extra_hand_card, uint64_t last, uint64_t nested) {
    std::string out;
    ProtoWriter w(out);
    w.uint_field(1, first);
    for (uint64_t seat = 0; seat < 2; ++seat) {
      w.message_field(3, [&](ProtoWriter& m) {
        m.uint_field(1, seat);
        m.uint_field(2, seat == 1 ? nested : 5);
        m.packed_field(
            6, extra_hand_card ? std::vector<uint32_t>{4, 9, 12} : std::vector<uint32_t>{4, 9});
      });
    }
    w.uint_field(4, 30);
    w.uint_field(20, last);  // a two-byte tag
    return out;
  };
  const std::string base = view(1, false, 7, 2);
  SECTION("no change") {
    CHECK(make_patch(base, base).empty());
  }
  SECTION("a change at the start: one varint entry") {
    CHECK(make_patch(base, view(2, false, 7, 2)) == std::string("\x06\x02", 2));
    require_round_trip(base, view(2, false, 7, 2));
  }
  SECTION("a change at the end") {
    CHECK(make_patch(base, view(1, false, 8, 2)) == std::string("\x52\x08", 2));
    require_round_trip(base, view(1, false, 8, 2));
  }
  SECTION("a change inside the second nested record: a nested element edit") {
    const std::string after = view(1, false, 7, 3);
    // field 3 ELEMENTS, one item: index 1 nested, 2 bytes: field 2 VARINT 3.
    CHECK(make_patch(base, after) == std::string("\x0d\x01\x03\x02\x0a\x03", 6));
    require_round_trip(base, after);
  }
  SECTION("changes everywhere, and views that grow or shrink") {
    for (const std::string& after :
         {view(0, true, 0, 9), view(3, true, 7, 2), view(1, true, 9, 0)}) {
      require_round_trip(base, after);
      require_round_trip(after, base);
    }
  }
  SECTION("a run that goes on past the bytes the two share") {
    // The shared bytes end with a whole run of field 3; in `after` that run has one more record.
    const std::string before("\x1a\x01\x41\x20\x05", 5);
    const std::string after("\x1a\x01\x41\x1a\x01\x42\x20\x05", 8);
    require_round_trip(before, after);
    require_round_trip(after, before);
    require_round_trip(std::string("\x1a\x01\x41", 3), std::string("\x1a\x01\x41\x1a\x01\x42", 6));
  }
  SECTION("shared bytes that end inside a two-byte tag") {
    // Fields 20 and 36: tags a0 01 and a0 02.
    require_round_trip(std::string("\x08\x01\xa0\x01\x05", 5),
                       std::string("\x08\x01\xa0\x02\x05", 5));
  }
  SECTION("a malformed or ungrouped part both views share is still refused") {
    // The patch must carry the whole new view: a patch of fields would not apply to `before`.
    for (const std::string& tail : {std::string("\x10\x05\x08\x01", 4), std::string("\x0f\x01", 2),
                                    std::string("\x12\x09\x01", 3)}) {
      const std::string before = std::string("\x08\x01", 2) + tail;
      const std::string after = std::string("\x08\x02", 2) + tail;
      const std::string patch = make_patch(before, after);
      REQUIRE(!patch.empty());
      CHECK(patch[0] == '\0');
      require_round_trip(before, after);
    }
  }
}
