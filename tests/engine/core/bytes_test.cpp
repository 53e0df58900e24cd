#include <catch2/catch.hpp>

#include "core/bytes.hpp"

using namespace duelhall::engine;

TEST_CASE("ByteWriter and ByteReader round-trip and reject truncation") {
  ByteWriter out;
  out.varint(300);
  out.svarint(-5);
  out.str("hello");
  out.boolean(true);
  std::string bytes = out.take();
  ByteReader in(bytes);
  CHECK(in.varint() == 300);
  CHECK(in.svarint() == -5);
  CHECK(in.str() == "hello");
  CHECK(in.boolean());
  CHECK(in.done());
  ByteReader truncated(std::string_view(bytes).substr(0, 4));
  truncated.varint();
  truncated.svarint();
  CHECK_THROWS_AS(truncated.str(), DecodeError);
  ByteReader big("\xff\xff\xff\x0f");
  CHECK_THROWS_AS(big.bounded(100), DecodeError);
}

TEST_CASE("ProtoWriter writes protobuf wire format with proto3 defaults omitted") {
  std::string out;
  ProtoWriter w(out);
  w.uint_field(1, 150);
  w.uint_field(2, 0);
  w.string_field(3, "");
  w.sint_field(4, -1);
  std::vector<uint32_t> packed{3, 270};
  w.packed_field(5, packed);
  w.message_field(6, [](ProtoWriter& m) { m.uint_field(1, 1); });
  CHECK(out == std::string("\x08\x96\x01"
                           "\x20\x01"
                           "\x2a\x03\x03\x8e\x02"
                           "\x32\x02\x08\x01",
                           14));
}

TEST_CASE("ProtoWriter widens the length of a long nested message") {
  std::string out;
  ProtoWriter w(out);
  std::string long_text(200, 'x');
  w.message_field(1, [&](ProtoWriter& m) { m.string_field(2, long_text); });
  // tag, two-byte length 203, inner tag, two-byte length 200, text
  REQUIRE(out.size() == 1 + 2 + 1 + 2 + 200);
  CHECK(static_cast<uint8_t>(out[1]) == (203 & 0x7f | 0x80));
  CHECK(static_cast<uint8_t>(out[2]) == 203 >> 7);
}
