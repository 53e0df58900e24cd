#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "storage/sqlite/sqlite_match_store.hpp"
#include "support.hpp"
#include "toy_ruleset.hpp"

using namespace duelhall;
using storage::SqliteMatchStore;
using storage::StoreError;

namespace {

// A closed store (its WAL checkpointed into the file) holding some matches.
std::string make_store(const testing::ScratchDir& dir) {
  const std::string path = dir.file("d.db");
  const auto registry = testing::toy_registry();
  SqliteMatchStore store(path);
  for (uint64_t n = 1; n <= 40; ++n) {
    auto state = testing::play_toy_match(registry, n);
    const auto id = testing::store_match(store, *state, n);
    store.finish_match(id, state->outcome(), 5);
  }
  return path;
}

void overwrite(const std::string& path, size_t offset, const std::string& bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string open_error(const std::string& path) {
  try {
    SqliteMatchStore store(path);
  } catch (const StoreError& e) {
    return e.what();
  }
  return "opened without an error";
}

}  // namespace

TEST_CASE("the store used by the corruption tests spans many pages and opens cleanly") {
  testing::ScratchDir dir;
  const std::string path = make_store(dir);
  CHECK_FALSE(std::filesystem::exists(path + "-wal"));  // checkpointed at close
  CHECK(std::filesystem::file_size(path) > 8 * 4096);
  CHECK(SqliteMatchStore(path).list_ended({}).size() == 40);
}

TEST_CASE("a file that is not a database gives a clear error") {
  testing::ScratchDir dir;
  const std::string path = dir.file("d.db");
  std::ofstream(path) << std::string(8192, 'x');
  CHECK_THAT(open_error(path), Catch::Contains("is not a SQLite database"));
}

TEST_CASE("a database truncated to nothing is refused, not silently made a new store") {
  testing::ScratchDir dir;
  const std::string path = make_store(dir);
  std::filesystem::resize_file(path, 0);
  CHECK_THAT(open_error(path), Catch::Contains("empty file (truncated?)"));
  CHECK(std::filesystem::file_size(path) == 0);  // and left as it was
}

TEST_CASE("a database truncated inside its header gives a clear error") {
  testing::ScratchDir dir;
  const std::string path = make_store(dir);
  std::filesystem::resize_file(path, 60);
  CHECK_THAT(open_error(path), Catch::Contains("truncated: only 60 bytes"));
}

TEST_CASE("a database truncated to half its pages gives a clear error") {
  testing::ScratchDir dir;
  const std::string path = make_store(dir);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  CHECK_THAT(open_error(path), Catch::Contains("is truncated: its header declares"));
}

TEST_CASE("a database with damaged pages fails the integrity check at open") {
  testing::ScratchDir dir;
  const std::string path = make_store(dir);
  const size_t size = std::filesystem::file_size(path);
  // Scribble over whole pages in the middle of the file, where the match tables live.
  overwrite(path, (size / 4096 / 2) * 4096, std::string(3 * 4096, '\xA5'));
  const std::string error = open_error(path);
  INFO(error);
  CHECK_THAT(error, Catch::StartsWith("cannot open the match store"));
  CHECK((error.find("integrity check failed") != std::string::npos ||
         error.find("is corrupt") != std::string::npos));
}

TEST_CASE("a database with a damaged header gives a clear error") {
  testing::ScratchDir dir;
  const std::string path = make_store(dir);
  overwrite(path, 0, "SQLite format 2");
  CHECK_THAT(open_error(path), Catch::Contains("is not a SQLite database"));
}

TEST_CASE("a copy taken while the store is open (its WAL uncheckpointed) opens with all its data") {
  testing::ScratchDir dir;
  const auto registry = testing::toy_registry();
  SqliteMatchStore store(dir.file("d.db"));
  for (uint64_t n = 1; n <= 5; ++n)
    testing::store_match(store, *testing::play_toy_match(registry, n), n);
  // Copying the files of an open store is what a crash leaves behind.
  std::filesystem::copy_file(dir.file("d.db"), dir.file("copy.db"));
  std::filesystem::copy_file(dir.file("d.db-wal"), dir.file("copy.db-wal"));
  REQUIRE(std::filesystem::file_size(dir.file("copy.db-wal")) > 0);
  CHECK(SqliteMatchStore(dir.file("copy.db")).unfinished_matches().size() == 5);
}

TEST_CASE("a damaged write-ahead log is refused rather than silently dropped") {
  testing::ScratchDir dir;
  const auto registry = testing::toy_registry();
  SqliteMatchStore store(dir.file("d.db"));
  for (uint64_t n = 1; n <= 5; ++n)
    testing::store_match(store, *testing::play_toy_match(registry, n), n);
  std::filesystem::copy_file(dir.file("d.db"), dir.file("copy.db"));
  std::filesystem::copy_file(dir.file("d.db-wal"), dir.file("copy.db-wal"));
  overwrite(dir.file("copy.db-wal"), 16, "\x01\x02\x03\x04");  // a salt: the checksum fails
  CHECK_THAT(open_error(dir.file("copy.db")),
             Catch::Contains("write-ahead log") && Catch::Contains("is damaged"));
  overwrite(dir.file("copy.db-wal"), 0, "garbage!");
  CHECK_THAT(open_error(dir.file("copy.db")), Catch::Contains("is damaged"));
}
