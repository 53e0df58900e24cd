#include "storage/sqlite/file_check.hpp"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "storage/sqlite/sqlite.hpp"

namespace duelhall::storage {
namespace {

uint32_t big_endian_u32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
         static_cast<uint32_t>(p[2]) << 8 | static_cast<uint32_t>(p[3]);
}

// https://www.sqlite.org/fileformat.html#checksum_algorithm
bool wal_header_checksum_ok(const unsigned char* header) {
  const uint32_t magic = big_endian_u32(header);
  const bool big_endian = (magic & 1) != 0;
  uint32_t s0 = 0, s1 = 0;
  for (int i = 0; i < 24; i += 8) {
    auto word = [&](int at) {
      const unsigned char* p = header + at;
      return big_endian ? big_endian_u32(p)
                        : static_cast<uint32_t>(p[3]) << 24 | static_cast<uint32_t>(p[2]) << 16 |
                              static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[0]);
    };
    s0 += word(i) + s1;
    s1 += word(i + 4) + s0;
  }
  return s0 == big_endian_u32(header + 24) && s1 == big_endian_u32(header + 28);
}

// SQLite ignores a write-ahead log whose header is invalid, which would silently drop every
// transaction not yet copied into the database file.
void check_wal_file(const std::string& path) {
  const std::string wal = path + "-wal";
  std::error_code ec;
  if (!std::filesystem::exists(wal, ec)) return;
  // A header shorter than 32 bytes can only come from a crash while starting a new log, which
  // then held no transaction yet.
  if (std::filesystem::file_size(wal, ec) < 32 || ec) return;
  std::array<unsigned char, 32> header{};
  std::ifstream in(wal, std::ios::binary);
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  const uint32_t magic = big_endian_u32(header.data());
  if ((magic != 0x377f0682 && magic != 0x377f0683) || !wal_header_checksum_ok(header.data())) {
    throw StoreError("the write-ahead log " + wal +
                     " is damaged: opening would silently drop the transactions it holds. Restore "
                     "a backup, or move the file aside to accept losing them");
  }
}

}  // namespace

void check_database_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw StoreError("cannot read database " + path + ": " + ec.message());
  if (size == 0) {
    throw StoreError("database " + path +
                     " is an empty file (truncated?); refusing to start a new store over it");
  }
  // The 100-byte header (https://www.sqlite.org/fileformat.html#the_database_header).
  std::array<unsigned char, 100> header{};
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  if (static_cast<size_t>(in.gcount()) < header.size()) {
    throw StoreError("database " + path + " is truncated: only " + std::to_string(size) +
                     " bytes, less than a SQLite header");
  }
  static constexpr char kMagic[] = "SQLite format 3";  // with its terminating zero: 16 bytes
  if (std::memcmp(header.data(), kMagic, sizeof kMagic) != 0) {
    throw StoreError("database " + path + " is not a SQLite database (bad header)");
  }
  uint32_t page_size = static_cast<uint32_t>(header[16]) << 8 | header[17];
  if (page_size == 1) page_size = 65536;
  const uint32_t pages = big_endian_u32(&header[28]);
  const uint32_t change_counter = big_endian_u32(&header[24]);
  const uint32_t valid_for = big_endian_u32(&header[92]);
  // The declared page count is trustworthy only when written by the same change as the header.
  if (pages != 0 && valid_for == change_counter) {
    const uint64_t declared = static_cast<uint64_t>(pages) * page_size;
    if (size < declared) {
      throw StoreError("database " + path + " is truncated: its header declares " +
                       std::to_string(declared) + " bytes, the file has " + std::to_string(size));
    }
  }
  check_wal_file(path);
}

}  // namespace duelhall::storage
